//! One error type for every answer that is not a success, and the body
//! extractors that turn bad input into it.
//!
//! A 4xx explains what is wrong and names the field; a 5xx says only
//! "internal error", and its cause, kept whole as the error's source, is
//! logged with every link of its chain where the error is answered or, in a
//! background task, where the task gives up on it.

use axum::extract::{FromRequest, FromRequestParts, Request};
use axum::http::request::Parts;
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use fairseed_play::Code;
use fairseed_store::{Refusal, StoreError};
use serde::de::DeserializeOwned;
use serde::Serialize;

/// The stable code of an error answer (`docs/api.md` lists every one).
///
/// The HTTP edge's own refusals are variants here; a storage refusal carries
/// the store's [`Refusal`], and a refusal of a game flow its [`Code`]
/// ([`fairseed_play::RuleViolation::code`]). Each code is spelled once:
/// here, in [`Refusal::code`] or in [`Code::as_str`]; the codes the edge
/// shares with the flows (`not_found`, `internal`, …) are constants below.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum ErrorCode {
    /// The request cannot be read at all.
    BadRequest,
    /// A field is missing, ill-typed or out of range.
    InvalidField,
    /// No or unknown credentials.
    Unauthorized,
    /// A player token on an operator endpoint.
    Forbidden,
    /// The path exists, not with that method.
    MethodNotAllowed,
    /// A body over the size limit.
    PayloadTooLarge,
    /// A body that is not JSON.
    UnsupportedMediaType,
    /// An imported record does not verify.
    RecordInvalid,
    /// Over a rate limit.
    RateLimited,
    /// The caller holds the most event streams it may.
    TooManyStreams,
    /// Account creation is the operator's only.
    SignupClosed,
    /// A dice bet's idempotency key came with a different bet.
    IdempotencyKeyReused,
    /// A resource with the chosen id exists already.
    AlreadyExists,
    /// The client seed cannot change once the pair carried a bet.
    ClientSeedLocked,
    /// The rows a call changes kept changing under concurrent calls.
    Busy,
    /// Every connection slot is taken.
    Overloaded,
    /// The database does not commit now (`/healthz`).
    CannotCommit,
    /// The player has the most hold'em tables open that one player may.
    TooManyTables,
    /// The service runs the most hold'em tables it may.
    TablesFull,
    /// Refused by the store.
    Store(Refusal),
    /// Refused by a game flow (or a code the edge shares with the flows).
    Rule(Code),
}

impl ErrorCode {
    /// No such resource (or not the caller's).
    pub const NOT_FOUND: Self = Self::Rule(Code::NotFound);
    /// A bug or a database failure; details in the log only.
    pub const INTERNAL: Self = Self::Rule(Code::Internal);
    /// The commitment the caller saw is not the current one.
    pub const COMMITMENT_MISMATCH: Self = Self::Rule(Code::CommitmentMismatch);
    /// The table's seed session changed meanwhile.
    pub const SESSION_ROTATED: Self = Self::Rule(Code::SessionRotated);
    /// A player tried to accept their own chess seek.
    pub const OWN_SEEK: Self = Self::Rule(Code::OwnSeek);
    /// A retry under an idempotency key asked for something else.
    pub const IDEMPOTENCY_MISMATCH: Self = Self::Store(Refusal::IdempotencyMismatch);

    /// The code as the API answers it.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::BadRequest => "bad_request",
            Self::InvalidField => "invalid_field",
            Self::Unauthorized => "unauthorized",
            Self::Forbidden => "forbidden",
            Self::MethodNotAllowed => "method_not_allowed",
            Self::PayloadTooLarge => "payload_too_large",
            Self::UnsupportedMediaType => "unsupported_media_type",
            Self::RecordInvalid => "record_invalid",
            Self::RateLimited => "rate_limited",
            Self::TooManyStreams => "too_many_streams",
            Self::SignupClosed => "signup_closed",
            Self::IdempotencyKeyReused => "idempotency_key_reused",
            Self::AlreadyExists => "already_exists",
            Self::ClientSeedLocked => "client_seed_locked",
            Self::Busy => "busy",
            Self::Overloaded => "overloaded",
            Self::CannotCommit => "cannot_commit",
            Self::TooManyTables => "too_many_tables",
            Self::TablesFull => "tables_full",
            Self::Store(refusal) => refusal.code(),
            Self::Rule(code) => code.as_str(),
        }
    }
}

/// An error answer: `{code, message, field?}` with a status, and the cause
/// of a 5xx (never answered).
#[derive(Debug)]
pub struct ApiError {
    status: StatusCode,
    code: ErrorCode,
    message: String,
    field: Option<String>,
    retry_after: Option<u64>,
    source: Option<fairseed_store::BoxError>,
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.code.as_str(), self.message)
    }
}

impl std::error::Error for ApiError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.source
            .as_deref()
            .map(|e| e as &(dyn std::error::Error + 'static))
    }
}

/// An error and each of its causes, `: `-separated, for a log line.
pub use fairseed_store::Chain;

#[derive(Serialize)]
struct Body<'a> {
    code: &'a str,
    message: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    field: Option<&'a str>,
}

impl ApiError {
    /// Any status with a code and a message.
    pub fn new(status: StatusCode, code: ErrorCode, message: impl Into<String>) -> Self {
        Self {
            status,
            code,
            message: message.into(),
            field: None,
            retry_after: None,
            source: None,
        }
    }

    /// 422: a field is missing, ill-typed or out of range.
    pub fn invalid(field: impl Into<String>, reason: impl std::fmt::Display) -> Self {
        let field = field.into();
        Self {
            message: format!("{field}: {reason}"),
            field: Some(field),
            ..Self::new(
                StatusCode::UNPROCESSABLE_ENTITY,
                ErrorCode::InvalidField,
                "",
            )
        }
    }

    /// 400: the request cannot be read at all.
    pub fn bad_request(message: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, ErrorCode::BadRequest, message)
    }

    /// 401: no or unknown credentials.
    pub fn unauthorized(message: impl Into<String>) -> Self {
        Self::new(StatusCode::UNAUTHORIZED, ErrorCode::Unauthorized, message)
    }

    /// 404.
    pub fn not_found(what: &str) -> Self {
        Self::new(
            StatusCode::NOT_FOUND,
            ErrorCode::NOT_FOUND,
            format!("{what} not found"),
        )
    }

    /// 409: the state refused the change.
    pub fn conflict(code: ErrorCode, message: impl Into<String>) -> Self {
        Self::new(StatusCode::CONFLICT, code, message)
    }

    /// 429 with `Retry-After`.
    pub fn rate_limited(retry_after: u64) -> Self {
        Self::rate_limited_because("too many requests for this token; slow down", retry_after)
    }

    /// 429 with `Retry-After` and a message saying which limit.
    pub fn rate_limited_because(message: &str, retry_after: u64) -> Self {
        Self {
            retry_after: Some(retry_after),
            ..Self::new(
                StatusCode::TOO_MANY_REQUESTS,
                ErrorCode::RateLimited,
                message,
            )
        }
    }

    /// 500: the cause goes to the log only, with its chain, when the error
    /// is answered or given up on.
    pub fn internal(cause: impl Into<fairseed_store::BoxError>) -> Self {
        Self {
            source: Some(cause.into()),
            ..Self::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                ErrorCode::INTERNAL,
                "internal error",
            )
        }
    }

    /// This error with its chain of causes, for a log line.
    pub fn chain(&self) -> Chain<'_> {
        Chain(self)
    }

    /// Logs a 5xx with its chain of causes; called where it is answered (an
    /// HTTP response, a table socket's error message).
    pub fn log_if_server_error(&self) {
        if self.status.is_server_error() {
            tracing::error!(code = self.code.as_str(), error = %self.chain(), "answered with an error");
        }
    }

    /// The status this error answers with.
    pub fn status(&self) -> StatusCode {
        self.status
    }

    /// The stable code, as answered.
    pub fn code(&self) -> &'static str {
        self.code.as_str()
    }

    /// The message, as answered.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The field at fault, when one is.
    pub fn field(&self) -> Option<&str> {
        self.field.as_deref()
    }

    /// The code, typed.
    pub fn kind(&self) -> ErrorCode {
        self.code
    }

    /// Whether this error answers with `code`.
    pub fn is(&self, code: ErrorCode) -> bool {
        self.code == code
    }
}

impl ApiError {
    /// 503 `overloaded`: every connection slot is taken.
    pub fn overloaded() -> Self {
        Self {
            retry_after: Some(1),
            ..Self::new(
                StatusCode::SERVICE_UNAVAILABLE,
                ErrorCode::Overloaded,
                "too many connections; retry shortly",
            )
        }
    }

    /// 503 `cannot_commit`: the database does not commit now; the reason
    /// goes to the log only.
    pub fn cannot_commit() -> Self {
        Self {
            retry_after: Some(1),
            ..Self::new(
                StatusCode::SERVICE_UNAVAILABLE,
                ErrorCode::CannotCommit,
                "the database cannot commit now; retry shortly",
            )
        }
    }

    fn body(&self) -> Body<'_> {
        Body {
            code: self.code.as_str(),
            message: &self.message,
            field: self.field.as_deref(),
        }
    }

    /// The whole HTTP/1.1 answer, bytes to write to a socket that is closed
    /// after it: for refusals made before any request is read (the listener
    /// over its connection budget), where no router runs.
    pub fn to_http1_close(&self) -> Vec<u8> {
        let body = serde_json::to_string(&self.body()).unwrap_or_default();
        let mut head = format!(
            "HTTP/1.1 {}\r\ncontent-type: application/json\r\n",
            self.status
        );
        if let Some(secs) = self.retry_after {
            head.push_str(&format!("retry-after: {secs}\r\n"));
        }
        head.push_str(&format!(
            "connection: close\r\ncontent-length: {}\r\n\r\n{body}",
            body.len()
        ));
        head.into_bytes()
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        self.log_if_server_error();
        let mut response = (self.status, axum::Json(self.body())).into_response();
        if let Some(secs) = self.retry_after {
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(secs));
        }
        response
    }
}

impl From<StoreError> for ApiError {
    fn from(err: StoreError) -> Self {
        match err {
            StoreError::NotFound(what) => Self::not_found(what),
            StoreError::Conflict { code, message } => {
                Self::conflict(ErrorCode::Store(code), message)
            }
            other => Self::internal(other),
        }
    }
}

impl ApiError {
    /// A broken game rule from a `fairseed_play` flow: `409` with the rule's
    /// code. Two codes are not rules and keep their own status: `not_found`
    /// (a hand or move that does not exist: `404`) and `internal` (a stored
    /// state that contradicts itself: `500`, details logged only).
    pub fn rule(err: impl fairseed_play::RuleViolation + Send + Sync + 'static) -> Self {
        match err.code() {
            Code::NotFound => {
                Self::new(StatusCode::NOT_FOUND, ErrorCode::NOT_FOUND, err.to_string())
            }
            Code::Internal => Self::internal(err),
            code => Self::conflict(ErrorCode::Rule(code), err.to_string()),
        }
    }
}

/// `From` for each flow's rule error, so `?` maps it with [`ApiError::rule`].
/// (One blanket `impl<E: RuleViolation> From<E>` is refused by coherence:
/// the store's and the core's error types could implement the trait.)
macro_rules! rule_violations {
    ($($flow:ty),* $(,)?) => {$(
        impl From<$flow> for ApiError {
            fn from(err: $flow) -> Self {
                Self::rule(err)
            }
        }
    )*};
}

rule_violations!(
    fairseed_play::poker::PokerError,
    fairseed_play::selfpoker::SelfpokerError,
    fairseed_holdem::HoldemError,
);

/// A table's refusal: [`ApiError::rule`], the field named when one is at
/// fault (`invitation` at a private table).
impl From<fairseed_holdem::live::LiveError> for ApiError {
    fn from(err: fairseed_holdem::live::LiveError) -> Self {
        let field = matches!(err, fairseed_holdem::live::LiveError::Invitation(_))
            .then(|| "invitation".to_owned());
        Self {
            field,
            ..Self::rule(err)
        }
    }
}

/// Input the core refuses: a field out of form or range is `422
/// invalid_field` naming it (an unknown scheme names `scheme`), text that is
/// not JSON `400 bad_request`, and an empty mahjong wall the state's refusal,
/// `409 wall_empty`.
impl From<fairseed_core::Error> for ApiError {
    fn from(err: fairseed_core::Error) -> Self {
        use fairseed_core::Error;
        match err {
            Error::Invalid { field, reason } => Self::invalid(field, reason),
            Error::Missing { field } => Self::invalid(field, "missing"),
            Error::UnknownScheme(_) => {
                let message = err.to_string();
                let reason = message.strip_prefix("scheme: ").unwrap_or(&message);
                Self::invalid("scheme", reason)
            }
            Error::Syntax(message) => Self::bad_request(message),
            Error::WallExhausted { .. } => {
                Self::conflict(ErrorCode::Rule(Code::WallEmpty), err.to_string())
            }
            other => Self::new(
                StatusCode::UNPROCESSABLE_ENTITY,
                ErrorCode::InvalidField,
                other.to_string(),
            ),
        }
    }
}

/// A JSON body whose every rejection is an [`ApiError`] naming the field.
#[derive(Debug, Clone, Copy, Default)]
pub struct ApiJson<T>(pub T);

impl<S, T> FromRequest<S> for ApiJson<T>
where
    S: Send + Sync,
    T: DeserializeOwned,
{
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        let json = req
            .headers()
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| {
                let essence = v.split(';').next().unwrap_or_default().trim();
                essence.eq_ignore_ascii_case("application/json")
            });
        if !json {
            return Err(ApiError::new(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                ErrorCode::UnsupportedMediaType,
                "Content-Type: expected application/json",
            ));
        }
        let bytes = axum::body::Bytes::from_request(req, state)
            .await
            .map_err(|rejection| {
                if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
                    ApiError::new(
                        StatusCode::PAYLOAD_TOO_LARGE,
                        ErrorCode::PayloadTooLarge,
                        "body: larger than the 64 KiB limit",
                    )
                } else {
                    ApiError::bad_request(format!("body: {}", rejection.body_text()))
                }
            })?;
        parse_json(&bytes).map(ApiJson)
    }
}

/// Parses a body, naming the offending field on error.
///
/// JSON does not tell `8` from `8.0` (JSON Schema's `integer` admits both),
/// so a body refused with a number written with a fraction or an exponent
/// is read again with every integral number (below 2^53) as an integer.
pub fn parse_json<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, ApiError> {
    match parse_json_exact(bytes) {
        Err(refused) if refused.status == StatusCode::UNPROCESSABLE_ENTITY => {
            integral_numbers_as_integers(bytes)
                .and_then(|normal| parse_json_exact(&normal).ok())
                .ok_or(refused)
        }
        other => other,
    }
}

/// The body with integral numbers rewritten as integers, if any was not.
fn integral_numbers_as_integers(bytes: &[u8]) -> Option<Vec<u8>> {
    fn walk(value: &mut serde_json::Value, changed: &mut bool) {
        match value {
            serde_json::Value::Number(n) => {
                let text = n.to_string();
                if text.contains(['.', 'e', 'E']) {
                    let whole = text
                        .parse::<f64>()
                        .ok()
                        .filter(|f| f.fract() == 0.0 && f.abs() < 9_007_199_254_740_992.0);
                    if let Some(whole) = whole {
                        *value = serde_json::Value::from(whole as i64);
                        *changed = true;
                    }
                }
            }
            serde_json::Value::Array(items) => items.iter_mut().for_each(|v| walk(v, changed)),
            serde_json::Value::Object(fields) => fields.values_mut().for_each(|v| walk(v, changed)),
            _ => {}
        }
    }
    let mut value: serde_json::Value = serde_json::from_slice(bytes).ok()?;
    let mut changed = false;
    walk(&mut value, &mut changed);
    changed.then(|| serde_json::to_vec(&value).ok()).flatten()
}

fn parse_json_exact<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, ApiError> {
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let value = serde_path_to_error::deserialize(&mut de).map_err(|err| {
        let path = err.path().to_string();
        let inner = err.into_inner();
        if inner.is_syntax() || inner.is_eof() {
            ApiError::bad_request(format!("body: not valid JSON: {inner}"))
        } else if path == "." {
            ApiError::invalid("body", strip_position(&inner.to_string()))
        } else {
            ApiError::invalid(path, strip_position(&inner.to_string()))
        }
    })?;
    de.end().map_err(|e| {
        ApiError::bad_request(format!(
            "body: trailing characters after the JSON value: {e}"
        ))
    })?;
    Ok(value)
}

/// serde_json appends " at line 1 column 7"; the field name says more.
fn strip_position(message: &str) -> String {
    message
        .rfind(" at line ")
        .map_or(message, |i| &message[..i])
        .to_owned()
}

/// Query parameters whose rejection is an [`ApiError`].
#[derive(Debug, Clone, Copy, Default)]
pub struct ApiQuery<T>(pub T);

impl<S, T> FromRequestParts<S> for ApiQuery<T>
where
    S: Send + Sync,
    T: DeserializeOwned,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Self::Rejection> {
        let query = parts.uri.query().unwrap_or_default();
        let de = serde_urlencoded::Deserializer::new(form_urlencoded::parse(query.as_bytes()));
        serde_path_to_error::deserialize(de)
            .map(ApiQuery)
            .map_err(|err| {
                let path = err.path().to_string();
                ApiError::invalid(format!("query {path}"), err.into_inner())
            })
    }
}

/// Path parameters whose rejection is an [`ApiError`].
#[derive(Debug, Clone)]
pub struct ApiPath<T>(pub T);

impl<S, T> FromRequestParts<S> for ApiPath<T>
where
    S: Send + Sync,
    T: DeserializeOwned + Send,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        axum::extract::Path::<T>::from_request_parts(parts, state)
            .await
            .map(|axum::extract::Path(v)| ApiPath(v))
            .map_err(|rejection| ApiError::invalid("path", rejection.body_text()))
    }
}

#[cfg(test)]
mod rule_tests {
    use fairseed_play::poker::PokerError;

    use super::*;

    #[test]
    fn rules_answer_409_with_their_code_except_not_found_and_internal() {
        let seat = ApiError::from(PokerError::SeatTaken(3));
        assert_eq!(
            (seat.status(), seat.code()),
            (StatusCode::CONFLICT, "seat_taken")
        );
        assert_eq!(seat.message, "seat: 3 is taken");
        let hand = ApiError::from(PokerError::NoSuchHand(4));
        assert_eq!(
            (hand.status(), hand.code()),
            (StatusCode::NOT_FOUND, "not_found")
        );
        let bug = ApiError::from(PokerError::Corrupt("damaged".into()));
        assert_eq!(bug.status(), StatusCode::INTERNAL_SERVER_ERROR);
        assert_eq!(bug.message, "internal error");
    }
}

#[cfg(test)]
mod raw_answer_tests {
    use super::*;

    /// The listener's refusal is a whole HTTP/1.1 answer an HTTP parser reads
    /// back: status, `retry-after`, and a body of exactly its length.
    #[test]
    fn overloaded_is_a_complete_http_answer() {
        let bytes = ApiError::overloaded().to_http1_close();
        let text = String::from_utf8(bytes).expect("utf-8");
        let (head, body) = text.split_once("\r\n\r\n").expect("head and body");
        let mut lines = head.split("\r\n");
        assert_eq!(lines.next(), Some("HTTP/1.1 503 Service Unavailable"));
        let headers: Vec<&str> = lines.collect();
        assert!(headers.contains(&"retry-after: 1"), "{headers:?}");
        assert!(headers.contains(&"connection: close"), "{headers:?}");
        let length = format!("content-length: {}", body.len());
        assert!(headers.contains(&length.as_str()), "{headers:?}");
        let json: serde_json::Value = serde_json::from_str(body).expect("json body");
        assert_eq!(json["code"], "overloaded");
        assert_eq!(json["message"], "too many connections; retry shortly");
    }
}

#[cfg(test)]
mod cause_tests {
    use super::*;

    /// A storage failure keeps its cause to the log line, and the answer
    /// says only "internal error".
    #[test]
    fn an_internal_error_keeps_its_chain_and_answers_without_it() {
        let io = std::io::Error::other("disk on fire");
        let err = ApiError::from(StoreError::other(io));
        assert_eq!(err.status(), StatusCode::INTERNAL_SERVER_ERROR);
        assert_eq!(
            err.chain().to_string(),
            "internal: internal error: storage failure: disk on fire"
        );
        let body = serde_json::to_value(err.body()).expect("body");
        assert_eq!(
            body,
            serde_json::json!({"code": "internal", "message": "internal error"})
        );
    }
    /// A log writer the test reads back.
    #[derive(Clone, Default)]
    struct Captured(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);

    impl std::io::Write for Captured {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0.lock().expect("log buffer").extend_from_slice(bytes);
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    /// Answering an internal error logs one line with every link of its
    /// chain, while the answer's body names none of them.
    #[test]
    fn answering_an_internal_error_logs_its_chain_and_tells_the_client_nothing() {
        #[derive(Debug)]
        struct Decode(std::io::Error);
        impl std::fmt::Display for Decode {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("the rows of round 7 do not decode")
            }
        }
        impl std::error::Error for Decode {
            fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
                Some(&self.0)
            }
        }
        let captured = Captured::default();
        let writer = captured.clone();
        let subscriber = tracing_subscriber::fmt()
            .with_writer(move || writer.clone())
            .with_ansi(false)
            .finish();
        let err = ApiError::from(StoreError::other(Decode(std::io::Error::other(
            "column 3 is not UTF-8",
        ))));
        let response = tracing::subscriber::with_default(subscriber, || err.into_response());

        let log = String::from_utf8(captured.0.lock().expect("log buffer").clone()).expect("utf-8");
        let lines: Vec<&str> = log.lines().collect();
        assert_eq!(lines.len(), 1, "{log}");
        assert!(lines[0].contains("ERROR"), "{log}");
        assert!(
            lines[0].contains(
                "error=internal: internal error: storage failure: the rows of round 7 do not decode: column 3 is not UTF-8"
            ),
            "{log}"
        );

        assert_eq!(response.status(), StatusCode::INTERNAL_SERVER_ERROR);
        let body = futures_util::FutureExt::now_or_never(axum::body::to_bytes(
            response.into_body(),
            usize::MAX,
        ))
        .expect("a body in memory is ready")
        .expect("body");
        let body: serde_json::Value = serde_json::from_slice(&body).expect("json body");
        assert_eq!(
            body,
            serde_json::json!({"code": "internal", "message": "internal error"})
        );
    }

    /// An internal refusal of a game flow keeps the flow's error as its
    /// cause.
    #[test]
    fn a_flows_internal_refusal_keeps_its_error_as_the_cause() {
        let err = ApiError::from(fairseed_play::poker::PokerError::Corrupt("damaged".into()));
        let cause = std::error::Error::source(&err).map(ToString::to_string);
        assert_eq!(
            cause,
            Some(fairseed_play::poker::PokerError::Corrupt("damaged".into()).to_string())
        );
    }

    /// The core's refusals answer as the error table says: a field at
    /// fault 422 naming it, text that is not JSON 400, an empty wall 409.
    #[test]
    fn core_errors_answer_with_their_own_status() {
        let field = ApiError::from(fairseed_core::Error::invalid("bet.target", "out of range"));
        assert_eq!(
            (field.status(), field.code(), field.field()),
            (
                StatusCode::UNPROCESSABLE_ENTITY,
                "invalid_field",
                Some("bet.target")
            )
        );
        let scheme = ApiError::from(fairseed_core::Error::UnknownScheme("x".into()));
        assert_eq!(
            (scheme.status(), scheme.field()),
            (StatusCode::UNPROCESSABLE_ENTITY, Some("scheme"))
        );
        assert!(
            scheme.message().starts_with("scheme: unknown scheme 'x'"),
            "{}",
            scheme.message()
        );
        let syntax = ApiError::from(fairseed_core::Error::Syntax("not JSON".into()));
        assert_eq!(
            (syntax.status(), syntax.code()),
            (StatusCode::BAD_REQUEST, "bad_request")
        );
        let wall = ApiError::from(fairseed_core::Error::WallExhausted {
            draw: 137,
            tiles: 136,
        });
        assert_eq!(
            (wall.status(), wall.code()),
            (StatusCode::CONFLICT, "wall_empty")
        );
    }
}
