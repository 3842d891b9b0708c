//! The SVG chart of `pgn960 stats --chart`: white's score per SP with its 95% interval,
//! the overall mean, and the best and worst SPs named.

use super::table::Tables;
use anyhow::{anyhow, Result};
use plotters::prelude::*;

/// Draws the chart of `tables` as SVG text.
pub fn draw(tables: &Tables, min_games: u64) -> Result<String> {
    let mut svg = String::new();
    draw_into(tables, min_games, &mut svg)?;
    Ok(svg)
}

fn draw_into(tables: &Tables, min_games: u64, svg: &mut String) -> Result<()> {
    let rows = tables.sp_rows();
    let total: u64 = rows.iter().map(|r| r.games).sum();
    let points: f64 = rows
        .iter()
        .map(|r| r.white_wins as f64 + r.draws as f64 / 2.0)
        .sum();
    let mean = if total > 0 {
        points / total as f64
    } else {
        0.5
    };
    let shown: Vec<_> = rows
        .iter()
        .filter(|r| r.games >= min_games.max(1))
        .collect();
    let best = shown.iter().max_by(|a, b| {
        a.white_score_lo
            .partial_cmp(&b.white_score_lo)
            .unwrap_or(std::cmp::Ordering::Equal)
    });
    let worst = shown.iter().min_by(|a, b| {
        a.white_score_hi
            .partial_cmp(&b.white_score_hi)
            .unwrap_or(std::cmp::Ordering::Equal)
    });

    let root = SVGBackend::with_string(svg, (1600, 700)).into_drawing_area();
    let err = |e: &dyn std::fmt::Display| anyhow!("cannot draw the chart: {e}");
    root.fill(&WHITE).map_err(|e| err(&e))?;
    let title = format!(
        "White's score by Chess960 start position ({total} games; SPs with >= {} games; mean {mean:.3})",
        min_games.max(1)
    );
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 22))
        .margin(20)
        .x_label_area_size(50)
        .y_label_area_size(70)
        .build_cartesian_2d(-5f64..965f64, 0f64..1f64)
        .map_err(|e| err(&e))?;
    chart
        .configure_mesh()
        .x_desc("start position (SP, Scharnagl numbering; 518 = RNBQKBNR)")
        .y_desc("white score (wins + draws/2), 95% Wilson interval")
        .x_labels(20)
        .x_label_formatter(&|x| format!("{x:.0}"))
        .y_labels(11)
        .light_line_style(WHITE.mix(0.0))
        .draw()
        .map_err(|e| err(&e))?;
    chart
        .draw_series(shown.iter().filter_map(|r| {
            let (lo, hi) = (r.white_score_lo?, r.white_score_hi?);
            let x = f64::from(r.sp);
            Some(PathElement::new(vec![(x, lo), (x, hi)], BLUE.mix(0.35)))
        }))
        .map_err(|e| err(&e))?;
    chart
        .draw_series(shown.iter().filter_map(|r| {
            Some(Circle::new(
                (f64::from(r.sp), r.white_score?),
                2,
                BLUE.filled(),
            ))
        }))
        .map_err(|e| err(&e))?
        .label("SP score")
        .legend(|(x, y)| Circle::new((x, y), 3, BLUE.filled()));
    chart
        .draw_series(std::iter::once(PathElement::new(
            vec![(-5.0, mean), (965.0, mean)],
            RED.stroke_width(2),
        )))
        .map_err(|e| err(&e))?
        .label(format!("overall mean {mean:.3}"))
        .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], RED.stroke_width(2)));
    for (row, what, colour) in [(best, "best", GREEN), (worst, "worst", MAGENTA)] {
        if let (Some(r), Some(score)) = (row, row.and_then(|r| r.white_score)) {
            let x = f64::from(r.sp);
            chart
                .draw_series(std::iter::once(Circle::new(
                    (x, score),
                    6,
                    colour.stroke_width(2),
                )))
                .map_err(|e| err(&e))?;
            let label = format!(
                "{what}: SP {} {} {score:.3} ({} games)",
                r.sp, r.start, r.games
            );
            let y = if what == "best" || score < 0.12 {
                (score + 0.05).min(0.97)
            } else {
                score - 0.05
            };
            chart
                .draw_series(std::iter::once(Text::new(
                    label,
                    (x.clamp(60.0, 760.0), y),
                    ("sans-serif", 16).into_font().color(&colour),
                )))
                .map_err(|e| err(&e))?;
        }
    }
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
