// Command verify reads a fairseed transparency log written in the C2SP
// tlog-tiles layout with Go's golang.org/x/mod/sumdb/note and sumdb/tlog, an
// implementation independent of ours, and checks it:
//
//   - <dir>/checkpoint is a signed note that opens with the verifier key in <dir>/key,
//     and its text is a C2SP tlog-checkpoint (origin, size, base64 root hash);
//   - the hash tiles under <dir>/tile/<L>/<N>[.p/<W>] hash up to that root
//     (tlog.TileHashReader authenticates every tile it reads against it);
//   - every entry in <dir>/tile/entries/... hashes to its leaf hash in the tiles;
//   - the tree rebuilt from the entries alone has the checkpoint's root, and
//     every tile of it equals the file we published (x/mod 0.7.0's
//     TileHashReader skips authenticating the tiles below the root's, so this
//     check does not rely on it);
//   - the proofs in <dir>/proofs (ours) pass tlog.CheckRecord / tlog.CheckTree
//     and equal the ones Go computes itself.
//
// Usage (GOPATH mode, with Debian's golang-golang-x-mod-dev):
//
//	GO111MODULE=off GOPATH=/usr/share/gocode go run verify.go <dir>
//
// It prints one "ok" line per check and exits 1 on the first failure.
package main

import (
	"bufio"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/mod/sumdb/note"
	"golang.org/x/mod/sumdb/tlog"
)

const height = 8

func fail(format string, args ...interface{}) {
	fmt.Fprintf(os.Stderr, "FAIL: "+format+"\n", args...)
	os.Exit(1)
}

// c2spPath maps Go's tile path (tile/8/L/N, tile/8/data/N) to the C2SP one
// (tile/L/N, tile/entries/N), which drops the fixed height.
func c2spPath(t tlog.Tile) string {
	p := strings.TrimPrefix(t.Path(), fmt.Sprintf("tile/%d/", height))
	return "tile/" + strings.Replace(p, "data/", "entries/", 1)
}

type dirTiles struct{ dir string }

func (d dirTiles) Height() int { return height }

func (d dirTiles) ReadTiles(tiles []tlog.Tile) ([][]byte, error) {
	out := make([][]byte, len(tiles))
	for i, t := range tiles {
		data, err := os.ReadFile(filepath.Join(d.dir, c2spPath(t)))
		if err != nil {
			return nil, err
		}
		out[i] = data
	}
	return out, nil
}

func (d dirTiles) SaveTiles([]tlog.Tile, [][]byte) {}

func main() {
	if len(os.Args) != 2 {
		fail("usage: verify <dir>")
	}
	dir := os.Args[1]
	read := func(name string) []byte {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			fail("%v", err)
		}
		return data
	}

	verifier, err := note.NewVerifier(strings.TrimSpace(string(read("key"))))
	if err != nil {
		fail("verifier key: %v", err)
	}
	n, err := note.Open(read("checkpoint"), note.VerifierList(verifier))
	if err != nil {
		fail("checkpoint note: %v", err)
	}
	fmt.Printf("ok note: signed by %s (%08x)\n", n.Sigs[0].Name, n.Sigs[0].Hash)

	lines := strings.Split(n.Text, "\n")
	if len(lines) < 4 || lines[0] == "" {
		fail("checkpoint body %q", n.Text)
	}
	size, err := strconv.ParseInt(lines[1], 10, 64)
	if err != nil {
		fail("checkpoint size %q", lines[1])
	}
	root, err := tlog.ParseHash(lines[2])
	if err != nil {
		fail("checkpoint root %q", lines[2])
	}
	fmt.Printf("ok checkpoint: origin %s, size %d, root %s\n", lines[0], size, root)

	hr := tlog.TileHashReader(tlog.Tree{N: size, Hash: root}, dirTiles{dir})
	th, err := tlog.TreeHash(size, hr)
	if err != nil || th != root {
		fail("tree hash from tiles: %v %v", th, err)
	}
	fmt.Printf("ok tiles: recomputed root matches\n")

	for k := int64(0); k*(1<<height) < size; k++ {
		w := size - k*(1<<height)
		if w > 1<<height {
			w = 1 << height
		}
		t := tlog.Tile{H: height, L: -1, N: k, W: int(w)}
		bundle := read(c2spPath(t))
		indexes := make([]int64, w)
		for j := range indexes {
			indexes[j] = tlog.StoredHashIndex(0, k<<height+int64(j))
		}
		leaves, err := hr.ReadHashes(indexes)
		if err != nil {
			fail("leaf hashes of bundle %d: %v", k, err)
		}
		for j := 0; j < int(w); j++ {
			if len(bundle) < 2 {
				fail("bundle %d: entry %d cut short", k, j)
			}
			l := int(binary.BigEndian.Uint16(bundle))
			if len(bundle) < 2+l {
				fail("bundle %d: entry %d claims %d bytes", k, j, l)
			}
			if tlog.RecordHash(bundle[2:2+l]) != leaves[j] {
				fail("bundle %d: entry %d does not hash to its leaf", k, j)
			}
			bundle = bundle[2+l:]
		}
		if len(bundle) != 0 {
			fail("bundle %d: %d bytes after its %d entries", k, len(bundle), w)
		}
	}
	fmt.Printf("ok entries: all %d hash to their leaves\n", size)

	checkAllTiles(dir, read, size, root)

	checkProofs(read("proofs"), size, root, hr)
}

func same(a, b []tlog.Hash) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func parseHashes(field string) []tlog.Hash {
	var out []tlog.Hash
	for _, s := range strings.Split(field, ",") {
		if s == "" {
			continue
		}
		h, err := tlog.ParseHash(s)
		if err != nil {
			fail("proof hash %q", s)
		}
		out = append(out, h)
	}
	return out
}

// checkProofs reads lines "inclusion <index> <entry base64> <hashes>" and
// "consistency <old size> <old root> <hashes>", hashes comma-separated base64.
func checkProofs(data []byte, size int64, root tlog.Hash, hr tlog.HashReader) {
	sc := bufio.NewScanner(strings.NewReader(string(data)))
	count := 0
	for sc.Scan() {
		f := strings.Split(sc.Text(), " ")
		if len(f) != 4 {
			fail("proof line %q", sc.Text())
		}
		at, err := strconv.ParseInt(f[1], 10, 64)
		if err != nil {
			fail("proof line %q", sc.Text())
		}
		ours := parseHashes(f[3])
		switch f[0] {
		case "inclusion":
			entry, err := base64.StdEncoding.DecodeString(f[2])
			if err != nil {
				fail("entry %q", f[2])
			}
			if err := tlog.CheckRecord(ours, size, root, at, tlog.RecordHash(entry)); err != nil {
				fail("inclusion of %d: %v", at, err)
			}
			theirs, err := tlog.ProveRecord(size, at, hr)
			if err != nil || !same(theirs, ours) {
				fail("inclusion of %d: Go proves %v, we sent %v", at, theirs, ours)
			}
		case "consistency":
			old, err := tlog.ParseHash(f[2])
			if err != nil {
				fail("old root %q", f[2])
			}
			if err := tlog.CheckTree(ours, size, root, at, old); err != nil {
				fail("consistency from %d: %v", at, err)
			}
			theirs, err := tlog.ProveTree(size, at, hr)
			if err != nil || !same(theirs, ours) {
				fail("consistency from %d: Go proves %v, we sent %v", at, theirs, ours)
			}
		default:
			fail("proof line %q", sc.Text())
		}
		count++
	}
	fmt.Printf("ok proofs: %d of ours verify and equal Go's\n", count)
}

// checkAllTiles rebuilds the tree from the entry bundles alone and compares its
// root and every one of its tiles with what was published.
func checkAllTiles(dir string, read func(string) []byte, size int64, root tlog.Hash) {
	var stored []tlog.Hash
	mem := tlog.HashReaderFunc(func(indexes []int64) ([]tlog.Hash, error) {
		out := make([]tlog.Hash, len(indexes))
		for i, x := range indexes {
			if x >= int64(len(stored)) {
				return nil, fmt.Errorf("hash %d not stored", x)
			}
			out[i] = stored[x]
		}
		return out, nil
	})
	for k := int64(0); k*(1<<height) < size; k++ {
		w := size - k*(1<<height)
		if w > 1<<height {
			w = 1 << height
		}
		bundle := read(c2spPath(tlog.Tile{H: height, L: -1, N: k, W: int(w)}))
		for j := int64(0); j < w; j++ {
			l := int(binary.BigEndian.Uint16(bundle))
			hashes, err := tlog.StoredHashes(k<<height+j, bundle[2:2+l], mem)
			if err != nil {
				fail("rebuild: %v", err)
			}
			stored = append(stored, hashes...)
			bundle = bundle[2+l:]
		}
	}
	th, err := tlog.TreeHash(size, mem)
	if err != nil || th != root {
		fail("root rebuilt from entries: %v %v", th, err)
	}
	// x/mod 0.7.0 lists every width of the last partial tile; the widest is the one served.
	var tiles []tlog.Tile
	for _, t := range tlog.NewTiles(height, 0, size) {
		if n := len(tiles); n > 0 && tiles[n-1].L == t.L && tiles[n-1].N == t.N {
			tiles = tiles[:n-1]
		}
		tiles = append(tiles, t)
	}
	for _, t := range tiles {
		want, err := tlog.ReadTileData(t, mem)
		if err != nil {
			fail("tile %s: %v", c2spPath(t), err)
		}
		if got := read(c2spPath(t)); string(got) != string(want) {
			fail("tile %s differs from the tree rebuilt from the entries", c2spPath(t))
		}
	}
	fmt.Printf("ok rebuild: root from entries matches, %d tiles equal\n", len(tiles))
}
