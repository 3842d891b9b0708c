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

fn draw_into(tables: &SpTables, min_games: u64, svg: &mut String) -> Result<()> {
    let min_games = min_games.max(1);
    let data = ChartData::new(tables, min_games);
    let (total, mean, max_n) = (data.total, data.mean, data.max_n);
    let root = SVGBackend::with_string(svg, (1600, 800)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(&e))?;
    let title = format!(
        "White's score per Chess960 start position against its games: the funnel of chance \
         ({total} games, pooled white score {mean:.3})"
    );
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 22))
        .margin(20)
        .x_label_area_size(50)
        .y_label_area_size(70)
        .build_cartesian_2d(0f64..max_n * 1.05 + 0.5, 0f64..1f64)
        .map_err(|e| err(&e))?;
    chart
        .configure_mesh()
        .x_desc(format!(
            "games of the SP (SPs with >= {min_games} games shown; points spread sideways \
             by up to 0.2 so equal ones do not hide each other)"
        ))
        .y_desc("white score (wins + draws/2)")
        .y_labels(11)
        .light_line_style(WHITE.mix(0.0))
        .draw()
        .map_err(|e| err(&e))?;
    draw_funnels(&mut chart, &data)?;
    draw_points(&mut chart, &data)?;
    draw_verdict(&mut chart, &data)?;
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .draw()
        .map_err(|e| err(&e))?;
    root.present().map_err(|e| err(&e))?;
    Ok(())
}

/// The 95% funnel (shaded), the funnel at 1 - 0.05/m (lines) and the pooled score.
fn draw_funnels(chart: &mut Chart<'_, '_>, data: &ChartData) -> Result<()> {
    let (max_n, mean, tested) = (data.max_n, data.mean, data.tested);
    // The band at each n, sampled finely enough to look smooth at small n.
    let steps = 400usize;
    let ns: Vec<f64> = (0..=steps)
        .map(|i| 1.0 + (max_n * 1.05 - 1.0).max(0.0) * i as f64 / steps as f64)
        .collect();
    // Bands at whole game counts (the exact band moves in whole half points).
    let band = |f: &Funnel, n: f64| {
        f.band(n.round().max(1.0) as u64)
            .unwrap_or((f.mean, f.mean))
    };
    if let Some(f) = data.funnel95.as_ref().filter(|f| f.total_games > 0.0) {
        let mut outline: Vec<(f64, f64)> = ns.iter().map(|&n| (n, band(f, n).1)).collect();
        outline.extend(ns.iter().rev().map(|&n| (n, band(f, n).0)));
        chart
            .draw_series(std::iter::once(Polygon::new(outline, BLUE.mix(0.12))))
            .map_err(|e| err(&e))?
            .label("95% funnel: where 19 SPs in 20 fall if no SP differs")
            .legend(|(x, y)| {
                Rectangle::new([(x, y - 5), (x + 20, y + 5)], BLUE.mix(0.12).filled())
            });
    }
    if let Some(f) = data.funnel_all.as_ref().filter(|f| f.total_games > 0.0) {
        for (i, side) in [0usize, 1].into_iter().enumerate() {
            let line = ns.iter().map(|&n| {
                let (lo, hi) = band(f, n);
                (n, if side == 0 { lo } else { hi })
            });
            let series = chart
                .draw_series(LineSeries::new(line, BLACK.mix(0.6).stroke_width(1)))
                .map_err(|e| err(&e))?;
            if i == 0 {
                series
                    .label(format!(
                        "funnel at 1 - 0.05/{tested}: outside it an SP stands out even after {tested} tests"
                    ))
                    .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], BLACK.mix(0.6)));
            }
        }
    }
    chart
        .draw_series(std::iter::once(PathElement::new(
            vec![(0.0, mean), (max_n * 1.05 + 0.5, mean)],
            RED.stroke_width(1),
        )))
        .map_err(|e| err(&e))?
        .label(format!("pooled white score {mean:.3}"))
        .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], RED.stroke_width(1)));
    Ok(())
}

/// The SPs as points, those that differ ringed in red and the first 20 named.
fn draw_points(chart: &mut Chart<'_, '_>, data: &ChartData) -> Result<()> {
    let (max_n, mean) = (data.max_n, data.mean);
    let jitter = |sp: u16| (f64::from((sp * 37) % 11) - 5.0) / 25.0;
    chart
        .draw_series(
            data.shown.iter().map(|&(sp, n, s)| {
                Circle::new((n as f64 + jitter(sp), s), 2, BLUE.mix(0.6).filled())
            }),
        )
        .map_err(|e| err(&e))?
        .label("an SP")
        .legend(|(x, y)| Circle::new((x, y), 3, BLUE.filled()));
    for (i, &(sp, n, s, q)) in data.significant.iter().enumerate() {
        let x = n as f64 + jitter(sp);
        chart
            .draw_series(std::iter::once(Circle::new((x, s), 6, RED.stroke_width(2))))
            .map_err(|e| err(&e))?;
        if i < 20 {
            let label = format!("SP {sp} {} {s:.3} ({n} games, q = {q:.2e})", back_rank(sp));
            let y = if s > mean {
                (s + 0.03).min(0.98)
            } else {
                (s - 0.03).max(0.02)
            };
            chart
                .draw_series(std::iter::once(Text::new(
                    label,
                    (x.min(max_n * 0.75), y),
                    ("sans-serif", 15).into_font().color(&RED),
                )))
                .map_err(|e| err(&e))?;
        }
    }
    Ok(())
}

/// The sentence saying whether any SP stands out.
fn draw_verdict(chart: &mut Chart<'_, '_>, data: &ChartData) -> Result<()> {
    let tested = data.tested;
    let verdict = match data.significant.len() {
        0 => format!(
            "No SP stands out: none of the {tested} SPs tested differs from the pooled score at \
             a 5% false discovery rate (all q >= 0.05)."
        ),
        1 => "1 SP differs from the pooled score beyond chance (q < 0.05): marked in red."
            .to_string(),
        k => format!(
            "{k} SPs differ from the pooled score beyond chance (q < 0.05): marked in red{}.",
            if k > 20 { ", the first 20 named" } else { "" }
        ),
    };
    chart
        .draw_series(std::iter::once(Text::new(
            verdict,
            (data.max_n * 0.02, 0.04),
            ("sans-serif", 18).into_font().color(&BLACK),
        )))
        .map_err(|e| err(&e))?;
    Ok(())
}
