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

const HEIGHT: f64 = 440.0;
const LEFT: f64 = 80.0;
/// The plot area's width; the legend's column to its right is as wide as its longest name.
const PLOT_W: f64 = 500.0;
/// The narrowest legend column.
const RIGHT: f64 = 180.0;
const TOP: f64 = 56.0;
const BOTTOM: f64 = 60.0;
/// Width of a character of the 12-pixel sans-serif text, a little over the average, so that
/// an estimate of a label's width does not fall short.
const CHAR_W: f64 = 7.0;
/// The least room between the centres of two x tick labels.
const LABEL_GAP: f64 = 36.0;
/// Length of a tick mark.
const TICK: f64 = 5.0;
/// Room between the plot's edges and its axes.
const PAD: f64 = 6.0;
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

/// The 1-2-5 step next to `step` (a [`tick_step`] value): smaller or larger.
fn next_step(step: f64, larger: bool) -> f64 {
    let mag = 10f64.powf(step.log10().floor());
    let norm = (step / mag).round();
    match (larger, norm as i64) {
        (false, 5..) => 2.0 * mag,
        (false, 2..=4) => mag,
        (false, _) => 0.5 * mag,
        (true, 5..) => 10.0 * mag,
        (true, 2..=4) => 5.0 * mag,
        (true, _) => 2.0 * mag,
    }
}

/// Whether `x` is a whole multiple of `step`.
fn on_step(x: f64, step: f64) -> bool {
    let q = x / step;
    (q - q.round()).abs() < 1e-6
}

/// The x axis's ticks over `x_min..=x_max` and the step their labels are written to: round
/// values, the first value (where a sweep starts) always among them. The finest 1-2-5 step
/// with at most 10 ticks, or a coarser one, that passes through `x_min` (`100, 200, ...
/// 1000` for HZ from 100); when none does, the round ticks of a step with at most 8, after
/// `x_min`'s own, a round tick too close to it marked but not labelled (`2, 10, 20, ... 60`
/// for CPUs from 2). Each tick comes with whether it is labelled.
/// Ticks used to be the multiples of a step only, so a sweep from 100 by 100 was labelled
/// from 200 and its first point had no label.
fn x_ticks(x_min: f64, x_max: f64, px_per_unit: f64) -> (Vec<(f64, bool)>, f64) {
    let span = x_max - x_min;
    let mut finest = tick_step(span);
    while span / next_step(finest, false) <= 10.0 {
        finest = next_step(finest, false);
    }
    let mut step = finest;
    while span / step >= 2.0 {
        if on_step(x_min, step) {
            let n = (span / step + 1e-9).floor() as i64;
            return ((0..=n).map(|k| (x_min + k as f64 * step, true)).collect(), step);
        }
        step = next_step(step, true);
    }
    let mut step = finest;
    while span / step > 8.0 {
        step = next_step(step, true);
    }
    let first = (x_min / step).floor() as i64 + 1;
    let last = (x_max / step + 1e-9).floor() as i64;
    let mut ticks = vec![(x_min, true)];
    ticks.extend((first..=last).map(|k| k as f64 * step).map(|x| (x, (x - x_min) * px_per_unit >= LABEL_GAP)));
    // The labels carry as many decimals as the first value needs.
    let mut label_step = step.min(1.0);
    while !on_step(x_min, label_step) && label_step > 1e-6 {
        label_step /= 10.0;
    }
    (ticks, label_step.min(step))
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
    // The finest round step with at most 8 intervals: lines a few units apart stay readable.
    let mut y_step = tick_step(y_max - y_min);
    while y_max > y_min && (y_max - y_min) / next_step(y_step, false) <= 8.0 {
        y_step = next_step(y_step, false);
    }
    let y_top = if y_max > 0.0 { (y_max / y_step).ceil() * y_step } else { 0.0 };
    let y_bottom = if y_min < 0.0 { (y_min / y_step).floor() * y_step } else { 0.0 };
    let y_top = if y_top > y_bottom { y_top } else { y_bottom + 1.0 };
    let longest = series.iter().map(|s| s.name.chars().count()).max().unwrap_or(0) as f64;
    let right = RIGHT.max(14.0 + 24.0 + longest * CHAR_W + 10.0);
    let width = (LEFT + PLOT_W + right).round();
    let plot_w = PLOT_W;
    let plot_h = HEIGHT - TOP - BOTTOM;
    let px = |x: f64| LEFT + (x - x_min) / (x_max - x_min) * plot_w;
    let py = |y: f64| TOP + plot_h - (y - y_bottom) / (y_top - y_bottom) * plot_h;
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{HEIGHT}" viewBox="0 0 {width} {HEIGHT}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(out, r#"<rect width="{width}" height="{HEIGHT}" fill="white"/>"#);
    let _ = writeln!(
        out,
        r#"<text x="{}" y="22" font-size="15" text-anchor="middle">{}</text>"#,
        (LEFT + plot_w / 2.0).max(width / 2.0),
        escape(chart.title)
    );
    if !chart.subtitle.is_empty() {
        let _ = writeln!(
            out,
            r##"<text x="{}" y="40" font-size="11" fill="#444" text-anchor="middle">{}</text>"##,
            (LEFT + plot_w / 2.0).max(width / 2.0),
            escape(chart.subtitle)
        );
    }
    // Axes a few pixels outside the plot, so points on its edges (an error of -100%) are not
    // drawn over by them; the grid inside.
    let (axis_x, axis_y) = (LEFT - PAD, TOP + plot_h + PAD);
    let _ = writeln!(out, r#"<line x1="{axis_x}" y1="{axis_y}" x2="{}" y2="{axis_y}" stroke="black"/>"#, LEFT + plot_w);
    let _ = writeln!(out, r#"<line x1="{axis_x}" y1="{TOP}" x2="{axis_x}" y2="{axis_y}" stroke="black"/>"#);
    // Ticks counted in steps from the bottom, so no float sum drifts.
    let steps = ((y_top - y_bottom) / y_step).round() as i64;
    for k in 0..=steps {
        let y = y_bottom + k as f64 * y_step;
        let yy = py(y);
        let grid = if y.abs() < y_step / 1000.0 && y_bottom < 0.0 { "#888" } else { "#ddd" };
        let _ =
            writeln!(out, r#"<line x1="{LEFT}" y1="{yy:.1}" x2="{:.1}" y2="{yy:.1}" stroke="{grid}"/>"#, LEFT + plot_w);
        let label = tick_label(y, y_step);
        let _ = writeln!(
            out,
            r#"<line x1="{:.1}" y1="{yy:.1}" x2="{axis_x}" y2="{yy:.1}" stroke="black"/>"#,
            axis_x - TICK
        );
        let _ = writeln!(
            out,
            r#"<text x="{:.1}" y="{:.1}" text-anchor="end">{label}</text>"#,
            axis_x - TICK - 3.0,
            yy + 4.0
        );
    }
    let (ticks, x_step) = x_ticks(x_min, x_max, plot_w / (x_max - x_min));
    for (x, labelled) in ticks {
        let xx = px(x);
        let _ = writeln!(
            out,
            r#"<line x1="{xx:.1}" y1="{axis_y:.1}" x2="{xx:.1}" y2="{:.1}" stroke="black"/>"#,
            axis_y + TICK
        );
        if labelled {
            let label = tick_label(x, x_step);
            let _ = writeln!(
                out,
                r#"<text x="{xx:.1}" y="{:.1}" text-anchor="middle">{label}</text>"#,
                axis_y + TICK + 14.0
            );
        }
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

    /// The first value of a sweep is labelled (issue 18: HZ from 100 was labelled from 200).
    #[test]
    fn x_ticks_start_at_the_first_value() {
        let labelled = |t: Vec<(f64, bool)>| t.into_iter().filter(|x| x.1).map(|x| x.0).collect::<Vec<_>>();
        let px = PLOT_W / 900.0;
        assert_eq!(labelled(x_ticks(100.0, 1000.0, px).0), (1..=10).map(|k| f64::from(k) * 100.0).collect::<Vec<_>>());
        assert_eq!(labelled(x_ticks(2.0, 64.0, PLOT_W / 62.0).0), [2.0, 10.0, 20.0, 30.0, 40.0, 50.0, 60.0]);
        assert_eq!(labelled(x_ticks(0.0, 64.0, PLOT_W / 64.0).0), [0.0, 10.0, 20.0, 30.0, 40.0, 50.0, 60.0]);
        // 1000 is too close to 500 to be labelled beside it: marked only.
        let t = x_ticks(500.0, 8000.0, PLOT_W / 7500.0).0;
        assert_eq!(t[..2], [(500.0, true), (1000.0, false)]);
        assert_eq!(labelled(t), [500.0, 2000.0, 3000.0, 4000.0, 5000.0, 6000.0, 7000.0, 8000.0]);
        let (t, step) = x_ticks(0.5, 3.0, PLOT_W / 2.5);
        assert_eq!((t[0].0, tick_label(t[0].0, step)), (0.5, "0.5".to_string()));
    }

    #[test]
    fn every_chart_labels_its_first_x_value_and_has_tick_marks() {
        let s = vec![Series { name: "ia64/syscall/none".into(), points: vec![(100.0, -100.0), (1000.0, -45.0)] }];
        let svg = line_chart(&chart("e", &s));
        assert!(svg.contains(r#"text-anchor="middle">100</text>"#), "{svg}");
        assert!(svg.contains(&format!(r#"y2="{:.1}" stroke="black"/>"#, HEIGHT - BOTTOM + PAD + TICK)), "{svg}");
    }

    /// A long legend name widens the chart instead of running off its edge.
    #[test]
    fn the_legend_fits_its_longest_name() {
        let name = "x86/nohz-syscall/v4.5-rc1 with a long name";
        let s = vec![Series { name: name.into(), points: vec![(0.0, 1.0), (1.0, 2.0)] }];
        let svg = line_chart(&chart("t", &s));
        let width: f64 = svg.split("width=\"").nth(1).and_then(|w| w.split('"').next()).unwrap().parse().unwrap();
        assert!(width >= LEFT + PLOT_W + 14.0 + 24.0 + name.len() as f64 * CHAR_W, "{width}");
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
        // 120 of span: steps of 20 (the finest with at most 8) from -100 to 20, the zero line darker.
        for label in [">-100</text>", ">-80</text>", ">-20</text>", ">0</text>", ">20</text>"] {
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
