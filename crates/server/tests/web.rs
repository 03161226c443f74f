//! The player page: files from `--web-dir` at `/`, API errors stay JSON.

mod common;

use std::sync::Arc;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use fairseed_store::{SeedCipher, SqliteStore};
use http_body_util::BodyExt;
use tower::ServiceExt;

#[tokio::test]
async fn web_dir_is_served_at_root() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("index.html"), "<h1>player page</h1>").expect("write");
    std::fs::write(dir.path().join("app.js"), "console.log(1)").expect("write");
    let store = SqliteStore::open_memory(SeedCipher::random().expect("key")).expect("store");
    let state = fairseed_server::state(Arc::new(store), common::OPERATOR_KEY, 1000, 0);
    let app = fairseed_server::with_static(fairseed_server::router(state), Some(dir.path()));
    let get = |path: &str| {
        let app = app.clone();
        let req = Request::builder()
            .uri(path)
            .body(Body::empty())
            .expect("request");
        async move {
            let res = app.oneshot(req).await.expect("infallible");
            let status = res.status();
            let body = res.into_body().collect().await.expect("body").to_bytes();
            (status, String::from_utf8_lossy(&body).into_owned())
        }
    };
    assert_eq!(
        get("/").await,
        (StatusCode::OK, "<h1>player page</h1>".to_owned())
    );
    assert_eq!(get("/app.js").await.1, "console.log(1)");
    let (status, body) = get("/v1/no-such-thing").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(body.contains("\"code\":\"not_found\""), "{body}");
    assert_eq!(get("/healthz").await.0, StatusCode::OK);
}
