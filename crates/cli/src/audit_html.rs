//! `fairseed audit --html`: one self-contained page, the plots as inline SVG.

use std::fmt::Write as _;

use fairseed_audit::words::{self, Lang};
use fairseed_audit::{Report, Summary};

/// The whole page.
pub fn page(source: &str, report: &Report, lang: Lang) -> String {
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
        summary(&mut body, s, lang);
    }
    format!(
        "<!doctype html><html lang=\"{}\"><meta charset=\"utf-8\"><title>fairseed audit</title>\
         <style>body{{font:15px system-ui,sans-serif;max-width:60em;margin:2em auto;padding:0 1em}}\
         svg{{background:#fafafa;border:1px solid #ddd}}li{{margin:.3em 0}}</style><body>{body}</body></html>\n",
        lang.code()
    )
}

fn summary(body: &mut String, s: &Summary, lang: Lang) {
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
    let [rolls, cards, rtp] = words::headings(lang);
    let _ = write!(
        body,
        "<h2>{rolls}</h2><p>{}</p>",
        esc(&words::rolls(lang, &s.rolls))
    );
    body.push_str("<p>Each bar: a 1 % bucket of rolls, its distance from the expected count in standard deviations.</p>");
    body.push_str(&histogram(&s.roll_histogram));
    let _ = write!(
        body,
        "<h2>{cards}</h2><p>{}</p>",
        esc(&words::cards(lang, &s.cards))
    );
    let r = &s.rtp;
    let _ = write!(body, "<h2>{rtp}</h2><p>{}</p>", esc(&words::rtp(lang, r)));
    body.push_str(
        "<p>Paid / staked as the bets settle; red: what the rules give the same stakes.</p>",
    );
    body.push_str(&line(&s.rtp_series, r.theoretical_by_chips));
}

/// Each 1 % bucket's deviation from its expected count, in standard deviations
/// (`(count − n/100) / √(n/100)`), with the ±3 band: a flat histogram of
/// millions of rolls shows nothing, its deviations show a bias.
fn histogram(buckets: &[u64]) -> String {
    let (w, h) = (600.0, 200.0);
    let mut svg = svg_open(
        w,
        h,
        "rolls per 1 % bucket: deviation from the expected count",
    );
    let total: u64 = buckets.iter().sum();
    if total == 0 || buckets.is_empty() {
        return svg + "</svg>";
    }
    let expected = total as f64 / buckets.len() as f64;
    let bar = w / buckets.len() as f64;
    let y = |z: f64| h / 2.0 - z.clamp(-5.0, 5.0) / 5.0 * (h / 2.0 - 10.0);
    for (i, &count) in buckets.iter().enumerate() {
        let z = (count as f64 - expected) / expected.sqrt();
        let (top, bottom) = (y(z).min(y(0.0)), y(z).max(y(0.0)));
        let colour = if z.abs() > 3.0 { "#c33" } else { "#4a7" };
        let _ = write!(
            svg,
            "<rect x=\"{:.2}\" y=\"{top:.2}\" width=\"{:.2}\" height=\"{:.2}\" fill=\"{colour}\"/>",
            i as f64 * bar,
            bar * 0.9,
            bottom - top
        );
    }
    for z in [-3.0, 3.0] {
        let _ = write!(svg, "<line x1=\"0\" x2=\"{w}\" y1=\"{0:.1}\" y2=\"{0:.1}\" stroke=\"#999\" stroke-dasharray=\"4\"/>", y(z));
    }
    let _ = write!(
        svg,
        "{}{}{}",
        label(4.0, y(3.0) - 3.0, "+3σ"),
        label(4.0, y(-3.0) + 12.0, "−3σ"),
        label(w - 80.0, h - 4.0, "0.00 … 99.99")
    );
    svg + "</svg>"
}

/// The running return to player (paid / staked) against the bets settled, on
/// 0.90 … 1.10 (clamped), the rules' mean as a red line.
fn line(points: &[(u64, f64)], promise: Option<f64>) -> String {
    let (w, h) = (600.0, 200.0);
    let mut svg = svg_open(w, h, "return to player over bets settled");
    let Some(&(last, _)) = points.last() else {
        return svg + "</svg>";
    };
    let (lo, hi) = (0.9, 1.1);
    let x = |v: u64| v as f64 / last.max(1) as f64 * w;
    let y = |v: f64| h - (v.clamp(lo, hi) - lo) / (hi - lo) * h;
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
            "<line x1=\"0\" x2=\"{w}\" y1=\"{0:.1}\" y2=\"{0:.1}\" stroke=\"#c33\"/>",
            y(p)
        );
    }
    let _ = write!(
        svg,
        "{}{}{}",
        label(4.0, 12.0, "1.10"),
        label(4.0, h - 4.0, "0.90"),
        label(w - 110.0, h - 4.0, &format!("{last} bets"))
    );
    svg + "</svg>"
}

fn svg_open(w: f64, h: f64, what: &str) -> String {
    format!("<svg width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" role=\"img\" aria-label=\"{what}\">")
}

fn label(x: f64, y: f64, text: &str) -> String {
    format!(
        "<text x=\"{x:.1}\" y=\"{y:.1}\" font-size=\"11\" fill=\"#555\">{}</text>",
        esc(text)
    )
}

fn esc(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}
