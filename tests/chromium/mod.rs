//! Headless Chromium for the tests that look at pages (the table, the lab's
//! report): where it is and how it is started.

use std::path::PathBuf;

/// Flags of every headless start: the ones `fuda report --png` uses.
pub use fuda::cli::png::HEADLESS;

/// The browser: `FUDA_CHROMIUM`, else `chromium` on the PATH. Required: a
/// test without it fails, saying how to install it.
pub fn path() -> PathBuf {
    if let Some(p) = std::env::var_os("FUDA_CHROMIUM") {
        return p.into();
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    (std::env::split_paths(&path).map(|d| d.join("chromium")))
        .find(|p| p.is_file())
        .unwrap_or_else(|| {
            panic!(
                "this test needs Chromium: `apt-get install -y --no-install-recommends \
                 chromium fonts-ipaexfont-gothic` (Debian; .ci/test does this), or set \
                 FUDA_CHROMIUM to a Chromium binary"
            )
        })
}
