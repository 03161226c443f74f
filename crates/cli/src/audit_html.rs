//! `fairseed audit --html`: one self-contained page, the plots as inline SVG.

use std::fmt::Write as _;

use fairseed_audit::{Report, Summary};

/// The whole page.
pub fn page(source: &str, report: &Report) -> String {
    let mut body = String::new();
    let verdict = if report.passed() { "passed" } else { "FAILED" };
    let _ = write!(
        body,
        "<h1>fairseed audit of {}: {verdict}</h1>",
        esc(source)
    );
    if let Some(c) = &report.checkpoint {
        let _ = write!(body, "<p>Log <code>{}</code>, checkpoint of {} entries, root <code>{}</code>, {} hash tiles authenticated.</p>", esc(&c.origin), c.size, esc(&c.root), report.tiles);
    }
    let _ = write!(body, "<h2>Findings: {}</h2><ol>", report.findings.total);
    for f in &report.findings.first {
        let _ = write!(
            body,
            "<li><code>{:?}</code> {}</li>",
            f.kind,
            esc(&f.to_string())
        );
    }
    body += "</ol>";
    if let Some(s) = &report.summary {
        summary(&mut body, s);
    }
    format!(
        "<!doctype html><html lang=\"en\"><meta charset=\"utf-8\"><title>fairseed audit</title>\
         <style>body{{font:15px system-ui,sans-serif;max-width:60em;margin:2em auto;padding:0 1em}}\
         svg{{background:#fafafa;border:1px solid #ddd}}li{{margin:.3em 0}}</style><body>{body}</body></html>\n"
    )
}

fn summary(body: &mut String, s: &Summary) {
    let _ = write!(
        body,
        "<h2>Entries</h2><p>{} entries, {} commitments open and not yet due.</p><ul>",
        s.counts.entries, s.open
    );
    for (scheme, [c, r, o]) in &s.counts.by_scheme {
        let _ = write!(
            body,
            "<li><code>{}</code>: {c} commitments, {o} outcomes, {r} reveals</li>",
            esc(scheme)
        );
    }
    body.push_str("</ul>");
    let _ = write!(body, "<h2>Dice rolls</h2><p>{} rolls recomputed from revealed seeds; chi-square {:.1} on {} degrees of freedom, p = {}.</p>", s.rolls.n, s.rolls.chi2, s.rolls.df, num(s.rolls.p));
    body.push_str(&histogram(&s.roll_histogram));
    let _ = write!(body, "<h2>Cards</h2><p>{} revealed deals; card position × card chi-square {:.1} on {} degrees of freedom, p = {}.</p>", s.cards.n / 52, s.cards.chi2, s.cards.df, num(s.cards.p));
    let r = &s.rtp;
    let _ = write!(body, "<h2>Return to player</h2><p>{} bets; by chips {}; per bet {} with 99 % CI {}; the rules give {}.</p>",
        r.bets, num(r.by_chips), num(r.mean), r.ci99.map_or("-".into(), |(a, b)| format!("{a:.4} to {b:.4}")), num(r.theoretical));
    body.push_str(&line(&s.rtp_series, r.theoretical));
}

/// Bars of the rolls per 1 % bucket, the expected count as a line.
fn histogram(buckets: &[u64]) -> String {
    let (w, h) = (600.0, 200.0);
    let max = buckets.iter().copied().max().unwrap_or(0).max(1) as f64;
    let bar = w / buckets.len().max(1) as f64;
    let mut svg = format!("<svg width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" role=\"img\" aria-label=\"rolls per 1 % bucket\">");
    for (i, &count) in buckets.iter().enumerate() {
        let bh = count as f64 / max * (h - 10.0);
        let _ = write!(
            svg,
            "<rect x=\"{:.2}\" y=\"{:.2}\" width=\"{:.2}\" height=\"{bh:.2}\" fill=\"#4a7\"/>",
            i as f64 * bar,
            h - bh,
            bar * 0.9
        );
    }
    let total: u64 = buckets.iter().sum();
    if total > 0 {
        let y = h - total as f64 / buckets.len() as f64 / max * (h - 10.0);
        let _ = write!(
            svg,
            "<line x1=\"0\" x2=\"{w}\" y1=\"{y:.2}\" y2=\"{y:.2}\" stroke=\"#c33\"/>"
        );
    }
    svg + "</svg>"
}

/// The running return to player against the bets settled, the promise as a line.
fn line(points: &[(u64, f64)], promise: Option<f64>) -> String {
    let (w, h) = (600.0, 200.0);
    let mut svg = format!("<svg width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" role=\"img\" aria-label=\"return to player over bets\">");
    let Some(&(last, _)) = points.last() else {
        return svg + "</svg>";
    };
    let (lo, hi) = points
        .iter()
        .fold((0.9f64, 1.1f64), |(lo, hi), &(_, y)| (lo.min(y), hi.max(y)));
    let x = |v: u64| v as f64 / last.max(1) as f64 * w;
    let y = |v: f64| h - (v - lo) / (hi - lo) * h;
    let path: Vec<String> = points
        .iter()
        .map(|&(a, b)| format!("{:.1},{:.1}", x(a), y(b)))
        .collect();
    let _ = write!(
        svg,
        "<polyline fill=\"none\" stroke=\"#36c\" points=\"{}\"/>",
        path.join(" ")
    );
    if let Some(p) = promise {
        let _ = write!(
            svg,
            "<line x1=\"0\" x2=\"{w}\" y1=\"{:.1}\" y2=\"{:.1}\" stroke=\"#c33\"/>",
            y(p),
            y(p)
        );
    }
    svg + "</svg>"
}

/// A number with 4 decimals, or `-` when there is none.
pub fn num(v: Option<f64>) -> String {
    v.map_or_else(|| "-".to_owned(), |v| format!("{v:.4}"))
}

fn esc(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}
