//! Small SVG charts written by the tool itself (no plotting dependency).

use std::fmt::Write;

/// One stacked bar: a label and shares that add up to 1.
pub struct StackedBar {
    pub label: String,
    pub parts: Vec<f64>,
}

/// A stacked bar chart (one bar per row, parts left to right), with a legend.
pub fn stacked_bars(title: &str, legend: &[(&str, &str)], bars: &[StackedBar]) -> String {
    let (w, bar_h, gap, left, top) = (640.0, 16.0, 4.0, 70.0, 40.0);
    let plot_w = w - left - 20.0;
    let h = top + bars.len() as f64 * (bar_h + gap) + 50.0;
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" font-family="sans-serif" font-size="11">"#
    );
    let _ = writeln!(s, r#"<text x="{}" y="20" font-size="14" text-anchor="middle">{}</text>"#, w / 2.0, xml(title));
    for (i, b) in bars.iter().enumerate() {
        let y = top + i as f64 * (bar_h + gap);
        let _ = writeln!(
            s,
            r#"<text x="{}" y="{}" text-anchor="end">{}</text>"#,
            left - 6.0,
            y + bar_h * 0.75,
            xml(&b.label)
        );
        let mut x = left;
        for (k, &p) in b.parts.iter().enumerate() {
            let pw = p * plot_w;
            let color = legend.get(k).map(|l| l.1).unwrap_or("#999");
            let _ = writeln!(
                s,
                r#"<rect x="{x:.2}" y="{y:.2}" width="{pw:.2}" height="{bar_h}" fill="{color}"><title>{:.1}%</title></rect>"#,
                p * 100.0
            );
            x += pw;
        }
    }
    let ly = top + bars.len() as f64 * (bar_h + gap) + 20.0;
    for (k, (name, color)) in legend.iter().enumerate() {
        let x = left + k as f64 * 120.0;
        let _ = writeln!(
            s,
            r#"<rect x="{x}" y="{}" width="12" height="12" fill="{color}"/><text x="{}" y="{}">{}</text>"#,
            ly - 10.0,
            x + 16.0,
            ly,
            xml(name)
        );
    }
    for q in 0..=4 {
        let x = left + plot_w * q as f64 / 4.0;
        let _ = writeln!(s, r#"<text x="{x}" y="{}" text-anchor="middle" fill="gray">{}%</text>"#, top - 6.0, q * 25);
    }
    s.push_str("</svg>\n");
    s
}

/// A histogram of `(x, count)` bars with unit spacing in x order.
pub fn histogram(title: &str, x_label: &str, bars: &[(f64, u64)]) -> String {
    let (w, h, left, bottom, top) = (720.0, 360.0, 60.0, 40.0, 40.0);
    let plot_w = w - left - 20.0;
    let plot_h = h - top - bottom;
    let max = bars.iter().map(|b| b.1).max().unwrap_or(1).max(1) as f64;
    let (x0, x1) = bars.iter().fold((f64::MAX, f64::MIN), |(a, b), &(x, _)| (a.min(x), b.max(x)));
    let span = (x1 - x0).max(1.0) + 0.5;
    let bw = (plot_w / (span * 2.0)).max(0.5);
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" font-family="sans-serif" font-size="11">"#
    );
    let _ = writeln!(s, r#"<text x="{}" y="20" font-size="14" text-anchor="middle">{}</text>"#, w / 2.0, xml(title));
    for &(x, c) in bars {
        let bx = left + (x - x0) / span * plot_w;
        let bh = c as f64 / max * plot_h;
        let _ = writeln!(
            s,
            r#"<rect x="{bx:.2}" y="{:.2}" width="{bw:.2}" height="{bh:.2}" fill="steelblue"><title>{x}: {c}</title></rect>"#,
            top + plot_h - bh
        );
    }
    for k in 0..=4 {
        let x = x0 + span * k as f64 / 4.0;
        let _ = writeln!(
            s,
            r#"<text x="{:.1}" y="{}" text-anchor="middle">{x:.0}</text>"#,
            left + plot_w * k as f64 / 4.0,
            h - bottom + 15.0
        );
    }
    let _ = writeln!(
        s,
        r#"<text x="{}" y="{}" text-anchor="middle">{}</text>"#,
        left + plot_w / 2.0,
        h - 8.0,
        xml(x_label)
    );
    let _ = writeln!(
        s,
        r#"<text x="12" y="{}" transform="rotate(-90 12 {})" text-anchor="middle">games (max {max:.0})</text>"#,
        top + plot_h / 2.0,
        top + plot_h / 2.0
    );
    s.push_str("</svg>\n");
    s
}

fn xml(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}
