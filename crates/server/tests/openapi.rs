//! The OpenAPI document lists exactly the router's routes: the paths are
//! read from the router itself, and each path's methods from the `Allow`
//! header the router answers to a method it does not route.

mod common;

use std::collections::{BTreeMap, BTreeSet};

use axum::body::Body;
use axum::http::{header, Method, Request, StatusCode};
use common::app::Harness;
use serde_json::json;
use tower::ServiceExt;

/// The route paths the router holds. axum has no public listing, so they
/// are taken from its `Debug` form, which prints each route id with its
/// path (routes first, then the fallback's); the test fails loudly if that
/// form ever stops showing them.
fn router_paths(router: &axum::Router) -> BTreeSet<String> {
    let debug = format!("{router:?}");
    let routes = debug
        .split_once("path_router:")
        .and_then(|(_, after)| after.split_once("fallback_router:"))
        .map(|(routes, _)| routes)
        .unwrap_or_else(|| panic!("unexpected Debug form of the router:\n{debug}"));
    let mut paths = BTreeSet::new();
    let mut rest = routes;
    while let Some(at) = rest.find("RouteId(") {
        rest = &rest[at..];
        let Some(colon) = rest.find("): \"") else {
            break;
        };
        let after = &rest[colon + 4..];
        let Some(end) = after.find('"') else { break };
        paths.insert(after[..end].to_owned());
        rest = &after[end..];
    }
    assert!(
        paths.len() > 10,
        "could not read the routes from the router's Debug form:\n{debug}"
    );
    paths
}

/// The methods the router serves on `path` (HEAD aside), from its 405 answer.
async fn router_methods(router: &axum::Router, path: &str) -> BTreeSet<String> {
    let concrete = path
        .split('/')
        .map(|seg| if seg.starts_with('{') { "probe" } else { seg })
        .collect::<Vec<_>>()
        .join("/");
    let probe = Method::from_bytes(b"PROBE").expect("method");
    let req = Request::builder()
        .method(probe)
        .uri(&concrete)
        .body(Body::empty())
        .expect("request");
    let res = router.clone().oneshot(req).await.expect("answer");
    assert_eq!(res.status(), StatusCode::METHOD_NOT_ALLOWED, "{path}");
    let allow = res
        .headers()
        .get(header::ALLOW)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_else(|| panic!("no Allow header for {path}"))
        .to_owned();
    allow
        .split(',')
        .map(|m| m.trim().to_ascii_lowercase())
        .filter(|m| m != "head")
        .collect()
}

#[tokio::test(flavor = "multi_thread")]
async fn openapi_lists_exactly_the_routers_routes() {
    let h = Harness::new(1000, 0).await;
    let router = fairseed_server::router(h.state.clone());
    let mut served = BTreeMap::new();
    for path in router_paths(&router) {
        let methods = router_methods(&router, &path).await;
        served.insert(path, methods);
    }
    let doc: serde_json::Value =
        serde_json::from_str(fairseed_server::OPENAPI).expect("the document is JSON");
    assert_eq!(doc["openapi"], "3.1.0");
    let documented: BTreeMap<String, BTreeSet<String>> = doc["paths"]
        .as_object()
        .expect("paths")
        .iter()
        .map(|(path, ops)| {
            let methods = ops
                .as_object()
                .expect("operations")
                .keys()
                .cloned()
                .collect();
            (path.clone(), methods)
        })
        .collect();
    assert_eq!(
        documented, served,
        "document (left) and router (right) differ"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn the_document_and_error_answers_are_served() {
    let h = Harness::new(1000, 0).await;
    let r = h
        .raw(Method::GET, "/v1/openapi.json", None, &[], None)
        .await;
    assert_eq!(r.status, StatusCode::OK);
    assert_eq!(r.json()["openapi"], "3.1.0");
    let health = h.raw(Method::GET, "/healthz", None, &[], None).await;
    assert_eq!(health.json(), json!({"status": "ok"}));
    let root = h.raw(Method::GET, "/", None, &[], None).await;
    assert!(root.text.contains("/v1/openapi.json"));
    let missing = h
        .raw(Method::GET, "/v1/nothing-here", None, &[], None)
        .await;
    assert_eq!(
        (missing.status, missing.json()["code"].clone()),
        (StatusCode::NOT_FOUND, json!("not_found"))
    );
    let wrong = h.raw(Method::DELETE, "/v1/seeds", None, &[], None).await;
    assert_eq!(wrong.status, StatusCode::METHOD_NOT_ALLOWED);
    assert_eq!(wrong.json()["code"], "method_not_allowed");
}
