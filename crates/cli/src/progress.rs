//! A progress bar on stderr, shown only when stderr is a terminal.
//!
//! Piped or redirected, stderr gets nothing but error messages, so scripts and
//! tests see the same bytes whatever the input size.

use std::io::{self, IsTerminal};
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// The bar, or nothing when stderr is not a terminal.
pub struct Progress {
    bar: Option<ProgressBar>,
}

impl Progress {
    /// A byte bar when the input size is known (a file), else a record counter.
    pub fn new(total_bytes: Option<u64>) -> Self {
        if !io::stderr().is_terminal() {
            return Self { bar: None };
        }
        let bar = match total_bytes {
            Some(total) => ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr())
                .with_style(style(
                    "{spinner} [{elapsed_precise}] {wide_bar} {bytes}/{total_bytes} {msg} (eta {eta})",
                )),
            None => ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr())
                .with_style(style("{spinner} [{elapsed_precise}] {msg}")),
        };
        bar.enable_steady_tick(Duration::from_millis(100));
        Self { bar: Some(bar) }
    }

    /// A bar counting `unit` (leaves of a log) against a total told by [`Progress::set`].
    #[cfg_attr(not(feature = "audit"), allow(dead_code))]
    pub fn new_count(unit: &str) -> Self {
        if !io::stderr().is_terminal() {
            return Self { bar: None };
        }
        let template = format!("{{spinner}} [{{elapsed_precise}}] {{wide_bar}} {{human_pos}}/{{human_len}} {unit} (eta {{eta}})");
        let bar = ProgressBar::with_draw_target(Some(0), ProgressDrawTarget::stderr())
            .with_style(style(&template));
        bar.enable_steady_tick(Duration::from_millis(100));
        Self { bar: Some(bar) }
    }

    /// Sets the bar to `done` of `total`.
    #[cfg_attr(not(feature = "audit"), allow(dead_code))]
    pub fn set(&self, done: u64, total: u64) {
        if let Some(bar) = &self.bar {
            bar.set_length(total);
            bar.set_position(done);
        }
    }

    /// Records `bytes` more of the input read and `records` checked so far in all.
    pub fn advance(&self, bytes: u64, records: u64) {
        if let Some(bar) = &self.bar {
            bar.inc(bytes);
            bar.set_message(format!("{records} records"));
        }
    }

    /// Prints a line on stderr without tearing the bar.
    pub fn eprintln(&self, line: &str) {
        match &self.bar {
            Some(bar) => bar.suspend(|| eprintln!("{line}")),
            None => eprintln!("{line}"),
        }
    }

    /// Removes the bar before the summary is printed.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

fn style(template: &str) -> ProgressStyle {
    // The templates are constants of this file; a typo would show in every run.
    ProgressStyle::with_template(template)
        .expect("progress templates are valid")
        .progress_chars("=> ")
}
