//! The player page: the page's own files from `--web-dir` at `/` (with
//! their content type), nothing else of the directory, API errors stay JSON.

mod common;

use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use common::app::Harness;
use http_body_util::BodyExt;
use tower::ServiceExt;

#[tokio::test(flavor = "multi_thread")]
async fn web_dir_is_served_at_root() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("index.html"), "<h1>player page</h1>").expect("write");
    std::fs::create_dir(dir.path().join("js")).expect("mkdir");
    std::fs::write(dir.path().join("js/app.js"), "console.log(1)").expect("write");
    std::fs::write(dir.path().join("notes.txt"), "not for the page").expect("write");
    std::fs::write(dir.path().join("app.js"), "outside js/").expect("write");
    let h = Harness::new(1000, 0).await;
    let app = fairseed_server::with_static(fairseed_server::router(h.state), Some(dir.path()));
    let get = |path: &str| {
        let app = app.clone();
        let req = Request::builder()
            .uri(path)
            .body(Body::empty())
            .expect("request");
        async move {
            let res = app.oneshot(req).await.expect("infallible");
            let status = res.status();
            let ctype = res
                .headers()
                .get(header::CONTENT_TYPE)
                .and_then(|v| v.to_str().ok())
                .unwrap_or("")
                .to_owned();
            let body = res.into_body().collect().await.expect("body").to_bytes();
            (status, ctype, String::from_utf8_lossy(&body).into_owned())
        }
    };
    let (status, ctype, body) = get("/").await;
    assert_eq!(
        (status, body.as_str()),
        (StatusCode::OK, "<h1>player page</h1>")
    );
    assert!(ctype.starts_with("text/html"), "{ctype}");
    let (status, ctype, body) = get("/js/app.js").await;
    assert_eq!((status, body.as_str()), (StatusCode::OK, "console.log(1)"));
    assert!(ctype.contains("javascript"), "{ctype}");
    // Files of the directory that are not the page's stay unreachable.
    for path in ["/notes.txt", "/app.js", "/js/../notes.txt"] {
        let (status, _, body) = get(path).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{path}: {body}");
        assert!(body.contains("\"code\":\"not_found\""), "{path}: {body}");
    }
    let (status, _, body) = get("/v1/no-such-thing").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(body.contains("\"code\":\"not_found\""), "{body}");
    assert_eq!(get("/healthz").await.0, StatusCode::OK);
}
