//! The real router driven with `oneshot`: the fast way to test a flow when
//! no process boundary is involved. The store is SQLite in memory, or
//! PostgreSQL in a fresh schema when `FAIRSEED_TEST_DB_URI` is set, so every
//! flow test runs against both backends.

use std::sync::Arc;

use axum::body::Body;
use axum::http::{HeaderMap, Method, Request, StatusCode};
use axum::Router;
use fairseed_server::AppState;
use fairseed_store::{SeedCipher, SqliteStore, Store};
use http_body_util::BodyExt;
use serde_json::Value;
use tower::ServiceExt;

use super::pg::{test_db_uri, Schema};
use super::OPERATOR_KEY;

/// One answer.
#[derive(Debug, Clone)]
pub struct Resp {
    pub status: StatusCode,
    pub headers: HeaderMap,
    pub text: String,
}

impl Resp {
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.text).unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.text))
    }
}

/// The service over a fresh store.
#[derive(Clone)]
pub struct Harness {
    pub app: Router,
    pub state: AppState,
    /// The PostgreSQL schema, dropped with the last clone.
    _schema: Option<Arc<Schema>>,
}

impl Harness {
    pub async fn new(opening_balance: u64, rate_limit: u32) -> Self {
        let cipher = SeedCipher::random().expect("key");
        let (store, schema): (Arc<dyn Store>, _) = match test_db_uri() {
            Some(url) => {
                assert_eq!(
                    tokio::runtime::Handle::current().runtime_flavor(),
                    tokio::runtime::RuntimeFlavor::MultiThread,
                    "a PostgreSQL harness needs #[tokio::test(flavor = \"multi_thread\")]"
                );
                let (schema, store) = Schema::connect(&url, cipher).await;
                (Arc::new(store), Some(Arc::new(schema)))
            }
            None => (
                Arc::new(SqliteStore::open_memory(cipher).expect("store")),
                None,
            ),
        };
        let state = fairseed_server::state(store, OPERATOR_KEY, opening_balance, rate_limit);
        Self {
            app: fairseed_server::app(state.clone()),
            state,
            _schema: schema,
        }
    }

    pub async fn raw(
        &self,
        method: Method,
        path: &str,
        token: Option<&str>,
        headers: &[(&str, &str)],
        body: Option<Vec<u8>>,
    ) -> Resp {
        let mut req = Request::builder().method(method).uri(path);
        if let Some(token) = token {
            req = req.header("authorization", format!("Bearer {token}"));
        }
        for (k, v) in headers {
            req = req.header(*k, *v);
        }
        let req = match body {
            Some(bytes) => req.body(Body::from(bytes)),
            None => req.body(Body::empty()),
        }
        .expect("request");
        let res = self.app.clone().oneshot(req).await.expect("infallible");
        let status = res.status();
        let headers = res.headers().clone();
        let bytes = res.into_body().collect().await.expect("body").to_bytes();
        Resp {
            status,
            headers,
            text: String::from_utf8(bytes.to_vec()).expect("utf-8 body"),
        }
    }

    pub async fn get(&self, path: &str, token: &str) -> Resp {
        self.raw(Method::GET, path, Some(token), &[], None).await
    }

    pub async fn send(&self, method: Method, path: &str, token: &str, body: Value) -> Resp {
        self.raw(
            method,
            path,
            Some(token),
            &[("content-type", "application/json")],
            Some(body.to_string().into_bytes()),
        )
        .await
    }

    pub async fn bet(&self, token: &str, key: &str, body: Value) -> Resp {
        self.raw(
            Method::POST,
            "/v1/dice/bets",
            Some(token),
            &[
                ("content-type", "application/json"),
                ("idempotency-key", key),
            ],
            Some(body.to_string().into_bytes()),
        )
        .await
    }

    /// A new player: (token, body).
    pub async fn player(&self) -> (String, Value) {
        let r = self.raw(Method::POST, "/v1/players", None, &[], None).await;
        assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
        let v = r.json();
        (v["token"].as_str().expect("token").to_owned(), v)
    }
}

/// Every record verifies with the core's verifier.
pub fn assert_verifies(record: &Value) {
    let verdict = fairseed_core::verify_value(record);
    assert!(
        verdict.valid,
        "record does not verify: {verdict:?}\n{record}"
    );
}
