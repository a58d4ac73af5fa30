//! [`AppError`]: every failure of the API, turned into a status and a JSON body `{"error": ".."}`.

use axum::extract::rejection::{JsonRejection, QueryRejection};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;

/// An API failure. Bad input gets a 4xx with a message that says what was wrong and what was
/// expected; anything else is a 500 whose message names the failed operation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AppError {
    /// The request's content is wrong: a bad puzzle, a wrong length, an unknown band (400).
    BadRequest(String),
    /// The request could not be taken as asked: malformed JSON or JSON of the wrong shape, a
    /// missing content type, a body over the limit, an unknown path or method. Carries its status
    /// (400, 404, 405, 413, 415 or 422).
    Rejected(StatusCode, String),
    /// No puzzle of the asked band could be made in time, or a request's work ran over its
    /// budget (503).
    Unavailable(String),
    /// Every worker for costly requests is busy: try again after the given seconds (503 with
    /// `Retry-After`).
    Busy(String, u32),
    /// A bug or a failed background task (500).
    Internal(String),
}

impl AppError {
    /// The HTTP status this error is answered with.
    pub fn status(&self) -> StatusCode {
        match self {
            AppError::BadRequest(_) => StatusCode::BAD_REQUEST,
            AppError::Rejected(status, _) => *status,
            AppError::Unavailable(_) | AppError::Busy(..) => StatusCode::SERVICE_UNAVAILABLE,
            AppError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    /// The message shown to the player.
    pub fn message(&self) -> &str {
        match self {
            AppError::BadRequest(m)
            | AppError::Rejected(_, m)
            | AppError::Unavailable(m)
            | AppError::Busy(m, _)
            | AppError::Internal(m) => m,
        }
    }
}

impl std::fmt::Display for AppError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.message())
    }
}

impl std::error::Error for AppError {}

impl From<shudu_game::GameError> for AppError {
    fn from(e: shudu_game::GameError) -> AppError {
        match e {
            shudu_game::GameError::BadRequest(m) => AppError::BadRequest(m),
            shudu_game::GameError::Unavailable(m) => AppError::Unavailable(m),
            shudu_game::GameError::Internal(m) => AppError::Internal(m),
        }
    }
}

impl From<shudu_core::ParseError> for AppError {
    fn from(e: shudu_core::ParseError) -> AppError {
        AppError::BadRequest(e.to_string())
    }
}

impl From<JsonRejection> for AppError {
    fn from(r: JsonRejection) -> AppError {
        let message = match &r {
            JsonRejection::MissingJsonContentType(_) => {
                "expected a JSON body with the header 'Content-Type: application/json'".to_string()
            }
            JsonRejection::BytesRejection(_) if r.status() == StatusCode::PAYLOAD_TOO_LARGE => {
                format!(
                    "the request body is larger than {} bytes",
                    crate::MAX_BODY_BYTES
                )
            }
            _ => r.body_text(),
        };
        AppError::Rejected(r.status(), message)
    }
}

impl From<QueryRejection> for AppError {
    fn from(r: QueryRejection) -> AppError {
        AppError::BadRequest(r.body_text())
    }
}

impl From<tokio::task::JoinError> for AppError {
    fn from(e: tokio::task::JoinError) -> AppError {
        AppError::Internal(format!("a background task failed: {e}"))
    }
}

impl IntoResponse for AppError {
    fn into_response(self) -> Response {
        let status = self.status();
        let body = serde_json::json!({ "error": self.message() });
        let mut response = (status, Json(body)).into_response();
        if let AppError::Busy(_, seconds) = self {
            response
                .headers_mut()
                .insert(axum::http::header::RETRY_AFTER, seconds.into());
        }
        response
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_input_is_400_and_bugs_are_500() {
        assert_eq!(
            AppError::BadRequest("x".into()).status(),
            StatusCode::BAD_REQUEST
        );
        assert_eq!(
            AppError::Internal("x".into()).status(),
            StatusCode::INTERNAL_SERVER_ERROR
        );
        assert_eq!(
            AppError::Unavailable("x".into()).status(),
            StatusCode::SERVICE_UNAVAILABLE
        );
        assert_eq!(
            AppError::Rejected(StatusCode::PAYLOAD_TOO_LARGE, "x".into()).status(),
            StatusCode::PAYLOAD_TOO_LARGE
        );
    }

    #[test]
    fn parse_error_keeps_the_core_message() {
        let e: AppError = "123".parse::<shudu_core::Puzzle>().unwrap_err().into();
        assert_eq!(e.status(), StatusCode::BAD_REQUEST);
        assert!(e.message().contains("found 3 cells; expected 81"), "{e}");
    }
}
