//! The player page at `/`: the public files of `web/`, compiled into the
//! binary so `fairseed serve` needs no directory and no build step beside its
//! own, or read from a directory given with `--web-dir` (for editing the page
//! without rebuilding the server).
//!
//! Only the files the page loads are reachable, in both modes: [`is_public`]
//! is the one rule (the embedded list is checked against it and against the
//! directory by a test), so `node_modules/`, tests, benches, tools, scripts
//! and screenshots in `web/` are never served.

use std::path::{Path, PathBuf};

use axum::http::{header, HeaderValue, Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::Router;

use crate::error::ApiError;

/// `(path under web/, bytes)` of every public file, embedded at compile time.
/// `include_bytes!` makes cargo rebuild the server when one of them changes.
macro_rules! embed {
    ($($path:literal),* $(,)?) => {
        &[$(($path, include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../web/", $path)) as &[u8])),*]
    };
}

/// The embedded page. A file added to `web/js`, `web/i18n` or `web/pkg` must
/// be listed here too (the `embedded_list_is_every_public_file` test says so).
pub const EMBEDDED: &[(&str, &[u8])] = embed![
    "index.html",
    "style.css",
    "favicon.ico",
    "fairseed-verifier.html",
    "i18n/en.js",
    "i18n/es.js",
    "i18n/pt.js",
    "js/account.js",
    "js/api.js",
    "js/app.js",
    "js/bulk-core.js",
    "js/bulk-worker.js",
    "js/bulk.js",
    "js/dice.js",
    "js/dom.js",
    "js/errors.js",
    "js/format.js",
    "js/hint.js",
    "js/holdem-words.js",
    "js/i18n.js",
    "js/json.js",
    "js/known.js",
    "js/lang.js",
    "js/offline.js",
    "js/poker.js",
    "js/receipts.js",
    "js/records.js",
    "js/render.js",
    "js/revealed.js",
    "js/seeds.js",
    "js/store.js",
    "js/table-badge.js",
    "js/table-coach.js",
    "js/table-controls.js",
    "js/table-dealt.js",
    "js/table-evidence.js",
    "js/table-history.js",
    "js/table-invite.js",
    "js/table-render.js",
    "js/table-round.js",
    "js/table-seat.js",
    "js/table.js",
    "js/tables.js",
    "js/types.js",
    "js/verdict.js",
    "js/verify.js",
    "js/wasm.js",
    "js/wire-types.js",
    "js/witnesses.js",
    "js/words.js",
    "js/worker.js",
    "pkg/fairseed_wasm.js",
    "pkg/fairseed_wasm_bg.wasm",
];

/// Where the page comes from.
#[derive(Debug, Clone)]
pub enum WebRoot {
    /// The files compiled into the binary.
    Embedded,
    /// A directory laid out like `web/`, read on every request.
    Dir(PathBuf),
}

fn plain_name(name: &str) -> bool {
    !name.is_empty()
        && !name.starts_with('.')
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.'))
}

/// Whether `path` (relative to `web/`, no leading slash) is a file the page
/// loads: the top-level files (the page, its stylesheet, its icon and the
/// offline verifier), and the modules, strings and wasm in
/// `js/`, `i18n/` and `pkg/` (one level, plain names).
pub fn is_public(path: &str) -> bool {
    if matches!(
        path,
        "index.html" | "style.css" | "favicon.ico" | "fairseed-verifier.html"
    ) {
        return true;
    }
    let Some((dir, name)) = path.split_once('/') else {
        return false;
    };
    if !plain_name(name) {
        return false;
    }
    match dir {
        "js" | "i18n" => name.ends_with(".js"),
        "pkg" => name.ends_with(".js") || name.ends_with(".wasm"),
        _ => false,
    }
}

/// The `Content-Type` of a public file (browsers refuse module scripts and
/// streaming wasm compilation under any other).
pub fn content_type(path: &str) -> &'static str {
    match path.rsplit_once('.').map(|(_, ext)| ext) {
        Some("html") => "text/html; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("js") => "text/javascript; charset=utf-8",
        Some("wasm") => "application/wasm",
        Some("ico") => "image/x-icon",
        _ => "application/octet-stream",
    }
}

/// The file under `web/` that `uri` names (`/` is `index.html`), if public.
fn public_path(uri: &Uri) -> Option<&str> {
    let path = uri.path().strip_prefix('/')?;
    let path = if path.is_empty() { "index.html" } else { path };
    is_public(path).then_some(path)
}

async fn bytes(root: &WebRoot, path: &str) -> Option<Vec<u8>> {
    match root {
        WebRoot::Embedded => EMBEDDED
            .iter()
            .find(|(p, _)| *p == path)
            .map(|(_, b)| b.to_vec()),
        WebRoot::Dir(dir) => tokio::fs::read(dir.join(Path::new(path))).await.ok(),
    }
}

/// Answers a request that matched no API route: a public file of the page,
/// else a JSON error like every other answer of the service.
pub async fn serve_file(root: &WebRoot, method: &Method, uri: &Uri) -> Response {
    let Some(path) = public_path(uri) else {
        return ApiError::not_found("path").into_response();
    };
    if method != Method::GET && method != Method::HEAD {
        return ApiError::new(
            StatusCode::METHOD_NOT_ALLOWED,
            crate::error::ErrorCode::MethodNotAllowed,
            "the page's files take GET only",
        )
        .into_response();
    }
    let Some(body) = bytes(root, path).await else {
        return ApiError::not_found("path").into_response();
    };
    let body = if method == Method::HEAD {
        Vec::new()
    } else {
        body
    };
    (
        [
            (
                header::CONTENT_TYPE,
                HeaderValue::from_static(content_type(path)),
            ),
            // The page and the wasm change with the server: always revalidate.
            (header::CACHE_CONTROL, HeaderValue::from_static("no-cache")),
            (
                header::X_CONTENT_TYPE_OPTIONS,
                HeaderValue::from_static("nosniff"),
            ),
        ],
        body,
    )
        .into_response()
}

async fn not_found() -> ApiError {
    ApiError::not_found("path")
}

/// Mounts the player page at `/`: the files compiled into the binary, or
/// those of `web_dir` when one is given (development). Only the page's own
/// files are reachable (see [`is_public`]); unknown paths,
/// `/v1` ones included, stay JSON 404s.
pub fn with_static(router: Router, web_dir: Option<&std::path::Path>) -> Router {
    let root = match web_dir {
        Some(dir) => WebRoot::Dir(dir.to_owned()),
        None => WebRoot::Embedded,
    };
    with_page(router, root)
}

/// Mounts the player page from `root` at `/`.
pub fn with_page(router: Router, root: WebRoot) -> Router {
    let api_404 = Router::new().route("/v1/{*rest}", axum::routing::any(not_found));
    let root = std::sync::Arc::new(root);
    router
        .merge(api_404)
        .fallback(move |method: Method, uri: Uri| {
            let root = std::sync::Arc::clone(&root);
            async move { serve_file(&root, &method, &uri).await }
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn web_dir() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../web")
    }

    /// Every file under `dir`, as paths relative to `base` with `/`.
    fn walk(base: &Path, dir: &Path, out: &mut Vec<String>) {
        for entry in std::fs::read_dir(dir).expect("read web dir") {
            let entry = entry.expect("dir entry");
            let path = entry.path();
            if path.is_dir() {
                walk(base, &path, out);
            } else {
                let rel = path.strip_prefix(base).expect("under base");
                out.push(rel.to_string_lossy().replace('\\', "/"));
            }
        }
    }

    #[test]
    fn embedded_list_is_every_public_file() {
        let mut on_disk = Vec::new();
        walk(&web_dir(), &web_dir(), &mut on_disk);
        let mut public: Vec<&str> = on_disk
            .iter()
            .map(String::as_str)
            .filter(|p| is_public(p))
            .collect();
        public.sort_unstable();
        let mut embedded: Vec<&str> = EMBEDDED.iter().map(|(p, _)| *p).collect();
        embedded.sort_unstable();
        assert_eq!(embedded, public);
    }

    #[test]
    fn only_the_page_is_public() {
        for path in [
            "index.html",
            "style.css",
            "favicon.ico",
            "fairseed-verifier.html",
            "js/app.js",
            "i18n/en.js",
            "pkg/fairseed_wasm.js",
            "pkg/fairseed_wasm_bg.wasm",
        ] {
            assert!(is_public(path), "{path}");
        }
        for path in [
            "",
            "test.sh",
            "build.sh",
            "package.json",
            "package-lock.json",
            "pkg/BUILD-INFO",
            "node_modules/playwright-core/package.json",
            "node_modules/x.js",
            "tests/harness.mjs",
            "tests/play.test.mjs",
            "bench/dice-1m.mjs",
            "tools/offline.mjs",
            "test-artifacts/dice.png",
            "js/../test.sh",
            "js/..",
            "js/.hidden.js",
            "js/sub/app.js",
            "js//app.js",
            "js/app.js/",
            "i18n/en.json",
            "pkg/fairseed_wasm.d.ts",
            "/index.html",
        ] {
            assert!(!is_public(path), "{path}");
        }
    }

    async fn get(root: WebRoot, method: Method, path: &str) -> (StatusCode, String, Vec<u8>) {
        use http_body_util::BodyExt as _;
        use tower::ServiceExt as _;
        let app = with_page(axum::Router::new(), root);
        let req = axum::http::Request::builder()
            .method(method)
            .uri(path)
            .body(axum::body::Body::empty())
            .expect("request");
        let res = app.oneshot(req).await.expect("infallible");
        let status = res.status();
        let ctype = res
            .headers()
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
            .to_owned();
        let body = res.into_body().collect().await.expect("body").to_bytes();
        (status, ctype, body.to_vec())
    }

    fn disk(path: &str) -> Vec<u8> {
        std::fs::read(web_dir().join(path)).expect("read web file")
    }

    #[tokio::test]
    async fn embedded_page_is_served_with_its_types() {
        let root = || WebRoot::Embedded;
        let (status, ctype, body) = get(root(), Method::GET, "/").await;
        assert_eq!(
            (status, ctype.as_str()),
            (StatusCode::OK, "text/html; charset=utf-8")
        );
        assert_eq!(body, disk("index.html"));
        for (path, want) in [
            ("/js/app.js", "text/javascript; charset=utf-8"),
            ("/i18n/en.js", "text/javascript; charset=utf-8"),
            ("/pkg/fairseed_wasm.js", "text/javascript; charset=utf-8"),
            ("/pkg/fairseed_wasm_bg.wasm", "application/wasm"),
            ("/style.css", "text/css; charset=utf-8"),
            ("/favicon.ico", "image/x-icon"),
            ("/fairseed-verifier.html", "text/html; charset=utf-8"),
        ] {
            let (status, ctype, body) = get(root(), Method::GET, path).await;
            assert_eq!((status, ctype.as_str()), (StatusCode::OK, want), "{path}");
            assert_eq!(body, disk(&path[1..]), "{path}");
        }
        let (status, _, body) = get(root(), Method::HEAD, "/js/app.js").await;
        assert_eq!((status, body.len()), (StatusCode::OK, 0));
        let (status, _, body) = get(root(), Method::POST, "/index.html").await;
        assert_eq!(status, StatusCode::METHOD_NOT_ALLOWED);
        assert!(String::from_utf8_lossy(&body).contains("method_not_allowed"));
    }

    #[tokio::test]
    async fn nothing_else_of_web_is_reachable() {
        for root in [WebRoot::Embedded, WebRoot::Dir(web_dir())] {
            for path in [
                "/test.sh",
                "/build.sh",
                "/package.json",
                "/package-lock.json",
                "/pkg/BUILD-INFO",
                "/node_modules/playwright-core/package.json",
                "/tests/harness.mjs",
                "/bench/dice-1m.mjs",
                "/tools/offline.mjs",
                "/js/../test.sh",
                "/js/%2e%2e/test.sh",
                "/js/no-such-file.js",
                "/v1/no-such-thing",
            ] {
                let (status, ctype, body) = get(root.clone(), Method::GET, path).await;
                assert_eq!(status, StatusCode::NOT_FOUND, "{path} from {root:?}");
                assert_eq!(ctype, "application/json", "{path}");
                assert!(
                    String::from_utf8_lossy(&body).contains("\"code\":\"not_found\""),
                    "{path}"
                );
            }
        }
    }

    #[tokio::test]
    async fn web_dir_overrides_the_embedded_page() {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::create_dir(dir.path().join("js")).expect("mkdir");
        std::fs::write(dir.path().join("index.html"), "<h1>dev page</h1>").expect("write");
        std::fs::write(dir.path().join("js/app.js"), "console.log(1)").expect("write");
        std::fs::write(dir.path().join("secret.txt"), "not served").expect("write");
        let root = || WebRoot::Dir(dir.path().to_owned());
        let (status, _, body) = get(root(), Method::GET, "/").await;
        assert_eq!(
            (status, body),
            (StatusCode::OK, b"<h1>dev page</h1>".to_vec())
        );
        let (_, ctype, body) = get(root(), Method::GET, "/js/app.js").await;
        assert_eq!(
            (ctype.as_str(), body),
            ("text/javascript; charset=utf-8", b"console.log(1)".to_vec())
        );
        assert_eq!(
            get(root(), Method::GET, "/secret.txt").await.0,
            StatusCode::NOT_FOUND
        );
        assert_eq!(
            get(root(), Method::GET, "/style.css").await.0,
            StatusCode::NOT_FOUND
        );
    }
}
