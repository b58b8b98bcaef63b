//! `fuda report FILE --png DIR`: each plot of the report alone as a PNG,
//! its SVG drawn by headless Chromium (`FUDA_CHROMIUM`, else `chromium` on
//! the PATH). A browser already draws these SVGs; a pure-Rust rasteriser
//! that can write the labels (resvg with text) would add about 80 CPU
//! seconds to a cold build of fuda.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Flags of every headless start: no sandbox or GPU (containers), and no
/// network of its own (first-run pages, updates, sync). The tests that look
/// at pages start Chromium with the same.
pub const HEADLESS: [&str; 7] = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
];

/// No plot takes a browser this long; a guard against one that hangs.
const GUARD: Duration = Duration::from_secs(120);
/// Headless Chromium draws only the top of a window lower than about 120
/// pixels: a lower plot gets white below it.
const MIN_HEIGHT: u32 = 160;

/// Writes `DIR/NAME.png` per plot; the paths written.
pub fn write_pngs(plots: &[(&str, String)], dir: &Path) -> Result<Vec<PathBuf>, String> {
    let chrome = chromium()?;
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let scratch = scratch_dir()?;
    let out: Result<Vec<PathBuf>, String> = (plots.iter())
        .map(|(name, svg)| {
            let png = draw(&chrome, &scratch, name, svg)?;
            let path = dir.join(format!("{name}.png"));
            crate::data::confine::write_own(&path, &png)?;
            Ok(path)
        })
        .collect();
    let _ = std::fs::remove_dir_all(&scratch);
    out
}

/// A new folder of our own under the temp dir for the browser's pages and
/// profile: made by this call (never one that was there, nor a link someone
/// left under the name), readable by us alone.
fn scratch_dir() -> Result<PathBuf, String> {
    let mut builder = std::fs::DirBuilder::new();
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    let base = std::env::temp_dir();
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    let mut last = None;
    for n in 0..64u32 {
        let dir = base.join(format!("fuda-png-{}-{nanos:x}-{n}", std::process::id()));
        match builder.create(&dir) {
            Ok(()) => return Ok(dir),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => last = Some(e),
            Err(e) => return Err(format!("cannot create {}: {e}", dir.display())),
        }
    }
    Err(format!(
        "cannot create a folder of its own under {}: {}",
        base.display(),
        last.map_or_else(String::new, |e| e.to_string())
    ))
}

/// The browser, or how to get one.
fn chromium() -> Result<PathBuf, String> {
    if let Some(p) = std::env::var_os("FUDA_CHROMIUM") {
        return Ok(p.into());
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    (std::env::split_paths(&path))
        .flat_map(|d| ["chromium", "chromium-browser", "google-chrome"].map(|n| d.join(n)))
        .find(|p| p.is_file())
        .ok_or_else(|| {
            "--png draws the plots with headless Chromium, and none was found: install it \
             (Debian: apt-get install chromium) or set FUDA_CHROMIUM to its binary; \
             --html writes the same plots without it"
                .to_string()
        })
}

/// The SVG's own size: `width="W" height="H"` of its first tag.
fn size(svg: &str) -> Option<(u32, u32)> {
    let head = &svg[..svg.find('>')?];
    let attr = |k: &str| -> Option<u32> {
        let at = head.find(&format!(" {k}=\""))? + k.len() + 3;
        let v = &head[at..at + head[at..].find('"')?];
        Some(v.parse::<f64>().ok()?.ceil() as u32)
    };
    Some((attr("width")?, attr("height")?))
}

/// One plot as PNG bytes, at the SVG's size.
fn draw(chrome: &Path, scratch: &Path, name: &str, svg: &str) -> Result<Vec<u8>, String> {
    let (w, h) = size(svg).ok_or(format!("the {name} plot has no size"))?;
    let h = h.max(MIN_HEIGHT);
    let (page, shot) = (
        scratch.join(format!("{name}.svg")),
        scratch.join(format!("{name}.png")),
    );
    std::fs::write(&page, svg).map_err(|e| format!("cannot write {}: {e}", page.display()))?;
    let mut child = Command::new(chrome)
        .args(HEADLESS)
        .arg("--hide-scrollbars")
        .arg(format!(
            "--user-data-dir={}",
            scratch.join("profile").display()
        ))
        .arg(format!("--window-size={w},{h}"))
        .arg(format!("--screenshot={}", shot.display()))
        .arg(format!("file://{}", page.display()))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot start {}: {e}", chrome.display()))?;
    let start = Instant::now();
    loop {
        match child.try_wait() {
            Ok(Some(_)) => break,
            Ok(None) if start.elapsed() < GUARD => std::thread::sleep(Duration::from_millis(50)),
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!("{} did not draw the {name} plot", chrome.display()));
            }
        }
    }
    match std::fs::read(&shot) {
        Ok(png) if png.starts_with(b"\x89PNG") => Ok(png),
        _ => Err(format!("{} drew no {name} plot", chrome.display())),
    }
}
