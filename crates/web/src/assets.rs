//! The page's files, embedded in the binary so that `shudu play` works offline.

use axum::http::header;
use axum::response::{IntoResponse, Response};

/// The page's security headers: everything comes from this server, nothing inline runs.
const CSP: &str = "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; \
                   connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'";

fn asset(content_type: &'static str, body: &'static [u8]) -> Response {
    (
        [
            (header::CONTENT_TYPE, content_type),
            // Files change with the binary; revalidating is cheap on loopback.
            (header::CACHE_CONTROL, "no-cache"),
            (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
            (header::CONTENT_SECURITY_POLICY, CSP),
            (header::REFERRER_POLICY, "no-referrer"),
        ],
        body,
    )
        .into_response()
}

/// `GET /`: the game.
pub(crate) async fn index() -> Response {
    asset(
        "text/html; charset=utf-8",
        include_bytes!("../static/index.html"),
    )
}

/// `GET /variants.html` (or `/variants`): the variants game. It asks the server for its puzzles
/// and hints here, and the variant engine in a Web Worker in the exported page.
pub(crate) async fn variants() -> Response {
    asset(
        "text/html; charset=utf-8",
        include_bytes!("../static/variants.html"),
    )
}

/// The page's ES modules (`app.js` starts the page and imports the others), by file name.
pub(crate) const SCRIPTS: [(&str, &[u8]); 11] = [
    ("app.js", include_bytes!("../static/app.js")),
    ("storage.js", include_bytes!("../static/storage.js")),
    ("engine.js", include_bytes!("../static/engine.js")),
    ("notes.js", include_bytes!("../static/notes.js")),
    ("board.js", include_bytes!("../static/board.js")),
    ("hints.js", include_bytes!("../static/hints.js")),
    ("games.js", include_bytes!("../static/games.js")),
    ("dialogs.js", include_bytes!("../static/dialogs.js")),
    ("print.js", include_bytes!("../static/print.js")),
    ("input.js", include_bytes!("../static/input.js")),
    ("variants.js", include_bytes!("../static/variants.js")),
];

/// `GET /app.js`, `/storage.js`, ...: one of the page's [`SCRIPTS`].
pub(crate) fn script(body: &'static [u8]) -> Response {
    asset("text/javascript; charset=utf-8", body)
}

/// `GET /style.css`.
pub(crate) async fn style() -> Response {
    asset(
        "text/css; charset=utf-8",
        include_bytes!("../static/style.css"),
    )
}

/// `GET /favicon.svg`.
pub(crate) async fn icon() -> Response {
    asset("image/svg+xml", include_bytes!("../static/favicon.svg"))
}

/// `GET /manifest.webmanifest`: lets a phone add the game to its home screen.
pub(crate) async fn manifest() -> Response {
    asset(
        "application/manifest+json",
        include_bytes!("../static/manifest.webmanifest"),
    )
}

/// `GET /fonts/DejaVuSans.ttf`: the font of the print page, the one `shudu print` embeds in its
/// PDF ([`crate::PRINT_FONT`]), so the two printouts look alike. The page asks for it only when
/// it prints.
pub(crate) async fn font() -> Response {
    asset("font/ttf", crate::PRINT_FONT)
}
