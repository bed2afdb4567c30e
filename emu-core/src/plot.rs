//! A small SVG line chart for sweeps (any metric against a parameter), written by hand so the
//! output is deterministic text: the same data gives byte-identical files.

use std::fmt::Write as _;

/// One line of a chart: a name for the legend and its points.
#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    /// Legend text.
    pub name: String,
    /// (x, y) points in x order.
    pub points: Vec<(f64, f64)>,
}

/// What a chart shows: its title, the line under it (model, clock, workload), the axes' labels
/// with their units, and the lines.
#[derive(Debug, Clone, PartialEq)]
pub struct Chart<'a> {
    /// The title: what is plotted against what.
    pub title: &'a str,
    /// The line under the title (the model, its clock and the workload); empty for none.
    pub subtitle: &'a str,
    /// The x axis's label, with its unit.
    pub x_label: &'a str,
    /// The y axis's label, with its unit.
    pub y_label: &'a str,
    /// The lines.
    pub series: &'a [Series],
}

const WIDTH: f64 = 760.0;
const HEIGHT: f64 = 440.0;
const LEFT: f64 = 80.0;
const RIGHT: f64 = 180.0;
const TOP: f64 = 56.0;
const BOTTOM: f64 = 60.0;
const COLOURS: [&str; 6] = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf"];

/// Rounds `span / 5` to a 1-2-5 step for axis ticks.
fn tick_step(span: f64) -> f64 {
    if span <= 0.0 || !span.is_finite() {
        return 1.0;
    }
    let raw = span / 5.0;
    let mag = 10f64.powf(raw.log10().floor());
    let norm = raw / mag;
    let nice = if norm <= 1.0 {
        1.0
    } else if norm <= 2.0 {
        2.0
    } else if norm <= 5.0 {
        5.0
    } else {
        10.0
    };
    nice * mag
}

/// `v` with as many decimals as `step` needs, so ticks read `0.1`, `0.2`, not
/// `0.30000000000000004`.
fn tick_label(v: f64, step: f64) -> String {
    let decimals = if step >= 1.0 { 0 } else { (-step.log10().floor()) as usize };
    let text = format!("{v:.decimals$}");
    // Zero reads `0` (not `-0`, nor `0.0` between `-0.5` and `0.5`).
    if text.trim_start_matches('-').chars().all(|c| c == '0' || c == '.') {
        "0".to_string()
    } else {
        text
    }
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

/// The SVG text of `chart`. The y axis spans 0 and every value (errors below 0 included), in
/// round steps, with a darker line at 0.
pub fn line_chart(chart: &Chart<'_>) -> String {
    let series = chart.series;
    let xs = series.iter().flat_map(|s| s.points.iter().map(|p| p.0));
    let ys: Vec<f64> = series.iter().flat_map(|s| s.points.iter().map(|p| p.1)).filter(|y| y.is_finite()).collect();
    let (x_min, x_max) = xs.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), x| (a.min(x), b.max(x)));
    let y_max = ys.iter().copied().fold(0.0f64, f64::max);
    let y_min = ys.iter().copied().fold(0.0f64, f64::min);
    let (x_min, x_max) = if x_min.is_finite() && x_max > x_min { (x_min, x_max) } else { (0.0, 1.0) };
    let y_step = tick_step(y_max - y_min);
    let y_top = if y_max > 0.0 { (y_max / y_step).ceil() * y_step } else { 0.0 };
    let y_bottom = if y_min < 0.0 { (y_min / y_step).floor() * y_step } else { 0.0 };
    let y_top = if y_top > y_bottom { y_top } else { y_bottom + 1.0 };
    let plot_w = WIDTH - LEFT - RIGHT;
    let plot_h = HEIGHT - TOP - BOTTOM;
    let px = |x: f64| LEFT + (x - x_min) / (x_max - x_min) * plot_w;
    let py = |y: f64| TOP + plot_h - (y - y_bottom) / (y_top - y_bottom) * plot_h;
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(out, r#"<rect width="{WIDTH}" height="{HEIGHT}" fill="white"/>"#);
    let _ = writeln!(
        out,
        r#"<text x="{}" y="22" font-size="15" text-anchor="middle">{}</text>"#,
        WIDTH / 2.0,
        escape(chart.title)
    );
    if !chart.subtitle.is_empty() {
        let _ = writeln!(
            out,
            r##"<text x="{}" y="40" font-size="11" fill="#444" text-anchor="middle">{}</text>"##,
            WIDTH / 2.0,
            escape(chart.subtitle)
        );
    }
    // Axes and grid.
    let _ = writeln!(
        out,
        r#"<line x1="{LEFT}" y1="{}" x2="{}" y2="{}" stroke="black"/>"#,
        TOP + plot_h,
        LEFT + plot_w,
        TOP + plot_h
    );
    let _ = writeln!(out, r#"<line x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{}" stroke="black"/>"#, TOP + plot_h);
    // Ticks counted in steps from the bottom, so no float sum drifts.
    let steps = ((y_top - y_bottom) / y_step).round() as i64;
    for k in 0..=steps {
        let y = y_bottom + k as f64 * y_step;
        let yy = py(y);
        let grid = if y.abs() < y_step / 1000.0 && y_bottom < 0.0 { "#888" } else { "#ddd" };
        let _ =
            writeln!(out, r#"<line x1="{LEFT}" y1="{yy:.1}" x2="{:.1}" y2="{yy:.1}" stroke="{grid}"/>"#, LEFT + plot_w);
        let label = tick_label(y, y_step);
        let _ = writeln!(out, r#"<text x="{:.1}" y="{:.1}" text-anchor="end">{label}</text>"#, LEFT - 6.0, yy + 4.0);
    }
    let x_step = tick_step(x_max - x_min);
    let first = (x_min / x_step).ceil() as i64;
    let last = (x_max / x_step + 1e-9).floor() as i64;
    for k in first..=last {
        let x = k as f64 * x_step;
        let xx = px(x);
        let label = tick_label(x, x_step);
        let _ =
            writeln!(out, r#"<text x="{xx:.1}" y="{:.1}" text-anchor="middle">{label}</text>"#, TOP + plot_h + 18.0);
    }
    let _ = writeln!(
        out,
        r#"<text x="{:.1}" y="{:.1}" text-anchor="middle">{}</text>"#,
        LEFT + plot_w / 2.0,
        HEIGHT - 16.0,
        escape(chart.x_label)
    );
    let _ = writeln!(
        out,
        r#"<text x="18" y="{:.1}" text-anchor="middle" transform="rotate(-90 18 {:.1})">{}</text>"#,
        TOP + plot_h / 2.0,
        TOP + plot_h / 2.0,
        escape(chart.y_label)
    );
    for (i, s) in series.iter().enumerate() {
        let colour = COLOURS[i % COLOURS.len()];
        let path: Vec<String> = s.points.iter().map(|(x, y)| format!("{:.1},{:.1}", px(*x), py(*y))).collect();
        let _ =
            writeln!(out, r#"<polyline fill="none" stroke="{colour}" stroke-width="2" points="{}"/>"#, path.join(" "));
        for (x, y) in &s.points {
            let _ = writeln!(out, r#"<circle cx="{:.1}" cy="{:.1}" r="2.5" fill="{colour}"/>"#, px(*x), py(*y));
        }
        let ly = TOP + 10.0 + 18.0 * i as f64;
        let lx = LEFT + plot_w + 14.0;
        let _ = writeln!(
            out,
            r#"<line x1="{lx:.1}" y1="{ly:.1}" x2="{:.1}" y2="{ly:.1}" stroke="{colour}" stroke-width="2"/>"#,
            lx + 18.0
        );
        let _ = writeln!(out, r#"<text x="{:.1}" y="{:.1}">{}</text>"#, lx + 24.0, ly + 4.0, escape(&s.name));
    }
    out.push_str("</svg>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chart<'a>(title: &'a str, series: &'a [Series]) -> Chart<'a> {
        Chart { title, subtitle: "model at 1 GHz", x_label: "x", y_label: "y", series }
    }

    #[test]
    fn ticks_are_round() {
        assert_eq!(tick_step(100.0), 20.0);
        assert_eq!(tick_step(7.0), 2.0);
        assert_eq!(tick_step(0.0), 1.0);
        assert_eq!(tick_label(0.1 + 0.2, 0.1), "0.3");
        assert_eq!(tick_label(-0.0, 0.5), "0");
        assert_eq!(tick_label(-20.0, 10.0), "-20");
    }

    #[test]
    fn chart_has_one_polyline_per_series_and_is_deterministic() {
        let s = vec![
            Series { name: "old".into(), points: vec![(1.0, 10.0), (2.0, 20.0), (3.0, 35.0)] },
            Series { name: "new <div>".into(), points: vec![(1.0, 12.0), (2.0, 12.0), (3.0, 12.0)] },
        ];
        let a = line_chart(&chart("cycles vs periods", &s));
        assert_eq!(a, line_chart(&chart("cycles vs periods", &s)));
        assert_eq!(a.matches("<polyline").count(), 2);
        assert!(a.contains("new &lt;div&gt;") && a.contains(">model at 1 GHz</text>"));
        assert!(a.starts_with("<svg") && a.ends_with("</svg>\n"));
    }

    #[test]
    fn negative_values_extend_the_axis_below_zero() {
        let s = vec![Series { name: "err".into(), points: vec![(0.0, -100.0), (1.0, 20.0)] }];
        let svg = line_chart(&chart("error", &s));
        // 120 of span: steps of 50 from -100 to 50, the zero line darker.
        for label in [">-100</text>", ">-50</text>", ">0</text>", ">50</text>"] {
            assert!(svg.contains(label), "{label}: {svg}");
        }
        assert!(svg.contains(r##"stroke="#888""##), "{svg}");
        // The lowest point sits on the bottom of the plot, the axis line.
        assert!(svg.contains(&format!(r#"cy="{:.1}""#, HEIGHT - BOTTOM)), "{svg}");
    }

    #[test]
    fn empty_or_flat_data_does_not_divide_by_zero() {
        let flat = vec![Series { name: "one".into(), points: vec![(5.0, 0.0)] }];
        let svg = line_chart(&chart("t", &flat));
        assert!(!svg.contains("NaN") && !svg.contains("inf"));
        assert!(!line_chart(&chart("t", &[])).contains("NaN"));
    }
}
