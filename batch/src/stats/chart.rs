//! The SVG chart of `pgn960 stats --chart`: the funnel of chance. Each SP is a point at
//! (its games, white's score); the shaded funnel is where white's score falls with 95%
//! probability when no SP differs from the pooled W/D/L, the wider lines where it falls
//! with probability 1 − 0.05/m over m SPs tested (a single SP outside it stands out even
//! after m tests). SPs with a Benjamini–Hochberg q-value below 0.05 are marked and named;
//! when there are none, the chart says that none stands out.

use anyhow::{anyhow, Result};
use pgn960::stats::significance::{analyse, Funnel, Wdl, ALPHA};
use pgn960::stats::table::{back_rank, SpTables};
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;

/// Draws the chart of `tables` (all `--by` cells added up) as SVG text.
pub fn draw(tables: &SpTables, min_games: u64) -> Result<String> {
    let mut svg = String::new();
    draw_into(tables, min_games, &mut svg)?;
    Ok(svg)
}

/// What the chart shows, computed from the pooled table.
struct ChartData {
    /// Games counted.
    total: u64,
    /// The pooled white score.
    mean: f64,
    /// SPs tested.
    tested: usize,
    /// The 95% funnel.
    funnel95: Option<Funnel>,
    /// The funnel at 1 - 0.05/tested.
    funnel_all: Option<Funnel>,
    /// (SP, games, white score) of the SPs drawn.
    shown: Vec<(u16, u64, f64)>,
    /// The most games of an SP drawn (at least 1).
    max_n: f64,
    /// (SP, games, white score, q) of the SPs whose q-value is below 0.05.
    significant: Vec<(u16, u64, f64, f64)>,
}

/// The chart's drawing area, in (games, white score).
type Chart<'a, 'b> = ChartContext<'a, SVGBackend<'b>, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

/// An error of drawing.
fn err(e: &dyn std::fmt::Display) -> anyhow::Error {
    anyhow!("cannot draw the chart: {e}")
}

impl ChartData {
    fn new(tables: &SpTables, min_games: u64) -> ChartData {
        let wdl: Vec<Wdl> = tables.pooled_sp_counts().iter().map(Wdl::from).collect();
        let analysis = analyse(&wdl);
        let tested = analysis.tests.iter().filter(|t| t.p.is_some()).count();
        let shown: Vec<(u16, u64, f64)> = wdl
            .iter()
            .enumerate()
            .filter(|(_, w)| w.games() >= min_games)
            .filter_map(|(sp, w)| Some((sp as u16, w.games(), w.score()?)))
            .collect();
        let max_n = shown.iter().map(|s| s.1).max().unwrap_or(1).max(1) as f64;
        let significant = analysis
            .tests
            .iter()
            .enumerate()
            .filter_map(|(sp, t)| match (t.q, t.score) {
                (Some(q), Some(s)) if q < ALPHA => Some((sp as u16, t.games, s, q)),
                _ => None,
            })
            .collect();
        ChartData {
            total: analysis.pooled.games,
            mean: analysis.pooled.score.unwrap_or(0.5),
            tested,
            funnel95: Funnel::new(&wdl, 0.95),
            funnel_all: Funnel::new(&wdl, 1.0 - ALPHA / tested.max(1) as f64),
            shown,
            max_n,
            significant,
        }
    }
}

/// The drawing rules the page's funnel (`report`) follows too: x is the square root of the
/// games (labelled in games), y white's score from 0 to 1; fonts of 15 px and more; the
/// legend and the verdict below the plot, off the lines; named SPs labelled once per point,
/// moved apart so that no label overlaps another.
fn draw_into(tables: &SpTables, min_games: u64, svg: &mut String) -> Result<()> {
    let min_games = min_games.max(1);
    let data = ChartData::new(tables, min_games);
    let (total, mean, max_n) = (data.total, data.mean, data.max_n);
    let root = SVGBackend::with_string(svg, (1600, 900)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(&e))?;
    let (upper, lower) = root.split_vertically(780);
    let title = format!(
        "White's score per Chess960 start position against its games: the funnel of chance \
         ({total} games, pooled white score {mean:.3})"
    );
    let mut chart = ChartBuilder::on(&upper)
        .caption(title, ("sans-serif", 22))
        .margin(20)
        .x_label_area_size(56)
        .y_label_area_size(70)
        .build_cartesian_2d(0.9f64..max_n.sqrt().max(1.0) + 0.1, 0f64..1f64)
        .map_err(|e| err(&e))?;
    chart
        .configure_mesh()
        .x_desc(format!(
            "games of the SP, square-root scale (SPs with >= {min_games} games shown)"
        ))
        .y_desc("white score (wins + draws/2)")
        .x_label_formatter(&|v| format!("{:.0}", v * v))
        .y_labels(11)
        .label_style(("sans-serif", 16))
        .axis_desc_style(("sans-serif", 17))
        .light_line_style(WHITE.mix(0.0))
        .draw()
        .map_err(|e| err(&e))?;
    draw_funnels(&mut chart, &data)?;
    draw_points(&mut chart, &data)?;
    draw_legend(&lower, &data)?;
    root.present().map_err(|e| err(&e))?;
    Ok(())
}

/// The 95% funnel (shaded), the funnel at 1 - 0.05/m (lines) and the pooled score.
fn draw_funnels(chart: &mut Chart<'_, '_>, data: &ChartData) -> Result<()> {
    let (max_n, mean) = (data.max_n, data.mean);
    // The band at each n, sampled evenly on the square-root axis.
    let steps = 400usize;
    let top = max_n.sqrt().max(1.0);
    let ns: Vec<f64> = (0..=steps)
        .map(|i| {
            let root = 1.0 + (top - 1.0) * i as f64 / steps as f64;
            root * root
        })
        .collect();
    // Bands at whole game counts (the exact band moves in whole half points).
    let band = |f: &Funnel, n: f64| {
        f.band(n.round().max(1.0) as u64)
            .unwrap_or((f.mean, f.mean))
    };
    if let Some(f) = data.funnel95.as_ref().filter(|f| f.total_games > 0.0) {
        let mut outline: Vec<(f64, f64)> = ns.iter().map(|&n| (n.sqrt(), band(f, n).1)).collect();
        outline.extend(ns.iter().rev().map(|&n| (n.sqrt(), band(f, n).0)));
        chart
            .draw_series(std::iter::once(Polygon::new(outline, BLUE.mix(0.12))))
            .map_err(|e| err(&e))?;
    }
    if let Some(f) = data.funnel_all.as_ref().filter(|f| f.total_games > 0.0) {
        for side in [0usize, 1] {
            let line = ns.iter().map(|&n| {
                let (lo, hi) = band(f, n);
                (n.sqrt(), if side == 0 { lo } else { hi })
            });
            chart
                .draw_series(LineSeries::new(line, BLACK.mix(0.6).stroke_width(1)))
                .map_err(|e| err(&e))?;
        }
    }
    chart
        .draw_series(std::iter::once(PathElement::new(
            vec![(0.9, mean), (top + 0.1, mean)],
            RED.stroke_width(1),
        )))
        .map_err(|e| err(&e))?;
    Ok(())
}

/// A point of named SPs: (games, white score, the SPs there with their q-values).
type NamedPoint = (u64, f64, Vec<(u16, f64)>);

/// The SPs as points, those that differ ringed in red; the first 20 named, one label per
/// point, the labels moved apart vertically so that none overlaps another.
fn draw_points(chart: &mut Chart<'_, '_>, data: &ChartData) -> Result<()> {
    let top = data.max_n.sqrt().max(1.0);
    chart
        .draw_series(
            data.shown
                .iter()
                .map(|&(_, n, s)| Circle::new(((n as f64).sqrt(), s), 3, BLUE.mix(0.6).filled())),
        )
        .map_err(|e| err(&e))?;
    // One label per point (SPs at the same games and score share it).
    let mut points: Vec<NamedPoint> = Vec::new();
    for &(sp, n, s, q) in data.significant.iter().take(20) {
        chart
            .draw_series(std::iter::once(Circle::new(
                ((n as f64).sqrt(), s),
                7,
                RED.stroke_width(2),
            )))
            .map_err(|e| err(&e))?;
        match points.iter_mut().find(|p| p.0 == n && p.1 == s) {
            Some(p) => p.2.push((sp, q)),
            None => points.push((n, s, vec![(sp, q)])),
        }
    }
    points.sort_by(|a, b| b.1.total_cmp(&a.1));
    let gap = 0.035;
    let mut last = f64::INFINITY;
    for (n, s, sps) in &points {
        let y = (s + 0.02).min(last - gap).clamp(0.03, 0.98);
        last = y;
        let x = (*n as f64).sqrt();
        let label = match sps.as_slice() {
            [(sp, q)] => format!("SP {sp} {} {s:.3} ({n} games, q = {q:.2e})", back_rank(*sp)),
            many => {
                let names: Vec<String> = many.iter().map(|(sp, _)| format!("SP {sp}")).collect();
                format!("{} {s:.3} ({n} games each)", names.join(", "))
            }
        };
        let anchor_x = if x > 1.0 + (top - 1.0) * 0.6 {
            x - (top - 1.0) * 0.35
        } else {
            x + 0.03
        };
        chart
            .draw_series(std::iter::once(Text::new(
                label,
                (anchor_x, y),
                ("sans-serif", 16).into_font().color(&RED),
            )))
            .map_err(|e| err(&e))?;
    }
    Ok(())
}

/// The legend and the sentence saying whether any SP stands out, below the plot.
fn draw_legend(
    area: &DrawingArea<SVGBackend<'_>, plotters::coord::Shift>,
    data: &ChartData,
) -> Result<()> {
    let tested = data.tested;
    let verdict = match data.significant.len() {
        0 => format!(
            "No SP stands out: none of the {tested} SPs tested differs from the pooled score at \
             a 5% false discovery rate (all q >= 0.05)."
        ),
        1 => {
            "1 SP differs from the pooled score beyond chance (q < 0.05): ringed in red and named."
                .to_string()
        }
        k => format!(
            "{k} SPs differ from the pooled score beyond chance (q < 0.05): ringed in red{}.",
            if k > 20 {
                ", the first 20 named"
            } else {
                ", named"
            }
        ),
    };
    let font = ("sans-serif", 16).into_font();
    let rows: [(RGBAColor, &str, String); 3] = [
        (BLUE.mix(0.3), "band", "95% funnel: where 19 SPs in 20 fall if no SP differs".to_string()),
        (BLACK.mix(0.6), "line", format!("funnel at 1 - 0.05/{tested}: outside it an SP stands out even after {tested} tests")),
        (RED.to_rgba(), "line", format!("pooled white score {:.3}", data.mean)),
    ];
    for (i, (color, kind, text)) in rows.iter().enumerate() {
        let y = 14 + 22 * i as i32;
        if *kind == "band" {
            area.draw(&Rectangle::new([(90, y), (120, y + 12)], color.filled()))
                .map_err(|e| err(&e))?;
        } else {
            area.draw(&PathElement::new(
                vec![(90, y + 6), (120, y + 6)],
                color.stroke_width(2),
            ))
            .map_err(|e| err(&e))?;
        }
        area.draw(&Text::new(text.clone(), (130, y - 2), font.clone()))
            .map_err(|e| err(&e))?;
    }
    area.draw(&Text::new(
        verdict,
        (90, 84),
        ("sans-serif", 18).into_font(),
    ))
    .map_err(|e| err(&e))?;
    Ok(())
}
