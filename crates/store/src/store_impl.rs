//! The one implementation of [`crate::Store`], expanded for each backend.
//!
//! Each method seals what it must outside the transaction, then runs the
//! shared logic (`accounts`, `rounds`, `leases`) through the backend's
//! `write_tx` (one transaction) or `read_tx` (a read). A macro rather than a
//! generic impl: each expansion is checked against the backend's concrete
//! transaction type, which is what lets PostgreSQL's futures be `Send` while
//! SQLite's run synchronously on its writer thread.
//!
//! A backend provides `cipher: Arc<SeedCipher>`, `place_bet_at(req, now)`,
//! `write_tx`/`read_tx(f: impl AsyncFnOnce(&mut Tx) -> StoreResult<R> + Send + 'static)`
//! and the live-event transport `send_events`/`listen_events`.

macro_rules! impl_store {
    ($backend:ty) => {
        #[async_trait::async_trait]
        impl $crate::Store for $backend {
            async fn health(&self) -> $crate::StoreResult<()> {
                self.read_tx(async move |tx| $crate::tx::Tx::ping(tx).await)
                    .await
            }

            async fn create_player(
                &self,
                token_hash: &str,
                balance: u128,
                pair: $crate::NewSeedPair,
            ) -> $crate::StoreResult<($crate::Player, $crate::SeedPair)> {
                let sealed = $crate::accounts::seal_pair(&self.cipher, &pair)?;
                let log = self.log;
                let token_hash = token_hash.to_owned();
                self.write_tx(async move |tx| {
                    $crate::accounts::create_player(tx, &token_hash, balance, &sealed, log, now())
                        .await
                })
                .await
            }

            async fn player_by_token(
                &self,
                token_hash: &str,
            ) -> $crate::StoreResult<$crate::Player> {
                let token_hash = token_hash.to_owned();
                self.read_tx(async move |tx| {
                    $crate::accounts::player_by_token(tx, &token_hash).await
                })
                .await
            }

            async fn player(&self, id: i64) -> $crate::StoreResult<$crate::Player> {
                self.read_tx(async move |tx| $crate::accounts::player(tx, id, false).await)
                    .await
            }

            async fn current_pair(&self, player_id: i64) -> $crate::StoreResult<$crate::SeedPair> {
                self.read_tx(async move |tx| $crate::accounts::current_pair(tx, player_id).await)
                    .await
            }

            async fn set_client_seed(
                &self,
                player_id: i64,
                commitment: &str,
                client_seed: &str,
            ) -> $crate::StoreResult<Option<$crate::SeedPair>> {
                let (commitment, client_seed) = (commitment.to_owned(), client_seed.to_owned());
                self.write_tx(async move |tx| {
                    $crate::accounts::set_client_seed(tx, player_id, &commitment, &client_seed)
                        .await
                })
                .await
            }

            async fn place_bet(
                &self,
                bet: $crate::BetRequest,
            ) -> $crate::StoreResult<$crate::BetReceipt> {
                // Each backend serializes a player's bets its own way.
                self.place_bet_at(bet, now()).await
            }

            async fn bets(
                &self,
                player_id: i64,
                pair_id: Option<i64>,
                page: $crate::Page,
            ) -> $crate::StoreResult<Vec<$crate::BetRow>> {
                self.read_tx(async move |tx| {
                    $crate::accounts::bets(tx, player_id, pair_id, page).await
                })
                .await
            }

            async fn rotate(
                &self,
                player_id: i64,
                next: $crate::NewSeedPair,
                records: $crate::RecordsFn,
            ) -> $crate::StoreResult<$crate::Rotation> {
                let sealed = $crate::accounts::seal_pair(&self.cipher, &next)?;
                let log = self.log;
                let cipher = std::sync::Arc::clone(&self.cipher);
                self.write_tx(async move |tx| {
                    $crate::accounts::rotate(tx, &cipher, player_id, &sealed, records, log, now())
                        .await
                })
                .await
            }

            async fn revealed_pairs(
                &self,
                player_id: i64,
                page: $crate::Page,
            ) -> $crate::StoreResult<Vec<$crate::RevealedPair>> {
                self.read_tx(async move |tx| {
                    $crate::tx::Tx::revealed_pairs(tx, player_id, page).await
                })
                .await
            }

            async fn record(
                &self,
                viewer: $crate::RecordReader,
                id: i64,
            ) -> $crate::StoreResult<$crate::RecordRow> {
                self.read_tx(async move |tx| $crate::rounds::record(tx, viewer, id).await)
                    .await
            }

            async fn records(
                &self,
                viewer: $crate::RecordReader,
                page: $crate::Page,
            ) -> $crate::StoreResult<Vec<$crate::RecordRow>> {
                self.read_tx(async move |tx| $crate::tx::Tx::records(tx, viewer, page).await)
                    .await
            }

            async fn records_after(
                &self,
                viewer: $crate::RecordReader,
                after: i64,
                limit: u32,
            ) -> $crate::StoreResult<Vec<$crate::RecordRow>> {
                self.read_tx(async move |tx| {
                    $crate::tx::Tx::records_after(tx, viewer, after, limit).await
                })
                .await
            }

            async fn round(&self, id: &str) -> $crate::StoreResult<$crate::RoundRow> {
                let id = id.to_owned();
                self.read_tx(async move |tx| $crate::rounds::round(tx, &id).await)
                    .await
            }

            async fn load_rounds(
                &self,
                ids: &[String],
            ) -> $crate::StoreResult<Vec<$crate::LoadedRound>> {
                let ids = ids.to_vec();
                let cipher = std::sync::Arc::clone(&self.cipher);
                self.read_tx(async move |tx| $crate::rounds::load_rounds(tx, &cipher, &ids).await)
                    .await
            }

            async fn commit(
                &self,
                commit: $crate::Commit,
            ) -> $crate::StoreResult<Vec<$crate::RoundUpdate>> {
                let sealed = $crate::rounds::seal_commit(&self.cipher, commit)?;
                let log = self.log;
                let cipher = std::sync::Arc::clone(&self.cipher);
                self.write_tx(async move |tx| {
                    $crate::rounds::commit(tx, &cipher, sealed, log, now()).await
                })
                .await
            }

            async fn import_record(
                &self,
                record: $crate::RecordOut,
                idempotent: Option<$crate::Idempotent>,
            ) -> $crate::StoreResult<$crate::RecordRow> {
                self.write_tx(async move |tx| {
                    $crate::rounds::import_record(tx, &record, idempotent.as_ref(), now()).await
                })
                .await
            }

            async fn idempotent_response(
                &self,
                scope: &str,
                key: &str,
            ) -> $crate::StoreResult<Option<(String, String)>> {
                let (scope, key) = (scope.to_owned(), key.to_owned());
                self.read_tx(async move |tx| $crate::tx::Tx::idempotent(tx, &scope, &key).await)
                    .await
            }

            async fn operator_player(
                &self,
                external_id: &str,
                token_hash: &str,
                balance: u128,
                pair: $crate::NewSeedPair,
            ) -> $crate::StoreResult<$crate::OperatorPlayer> {
                let sealed = $crate::accounts::seal_pair(&self.cipher, &pair)?;
                let log = self.log;
                let (external, token) = (external_id.to_owned(), token_hash.to_owned());
                let created = self
                    .write_tx(async move |tx| {
                        $crate::operator::find_or_create(
                            tx,
                            &external,
                            &token,
                            balance,
                            &sealed,
                            log,
                            now(),
                        )
                        .await
                    })
                    .await;
                match created {
                    Err($crate::StoreError::Conflict { code, .. })
                        if code == $crate::operator::RACE =>
                    {
                        let external = external_id.to_owned();
                        self.read_tx(async move |tx| $crate::operator::find(tx, &external).await)
                            .await
                    }
                    other => other,
                }
            }

            async fn set_operator_player_token(
                &self,
                external_id: &str,
                token_hash: Option<&str>,
            ) -> $crate::StoreResult<(i64, String)> {
                let external = external_id.to_owned();
                let token = token_hash.map(str::to_owned);
                self.write_tx(async move |tx| {
                    $crate::operator::set_token(tx, &external, token.as_deref()).await
                })
                .await
            }

            async fn grant_chips(
                &self,
                external_id: &str,
                key: &str,
                amount: u128,
            ) -> $crate::StoreResult<$crate::ChipGrant> {
                let (external, key) = (external_id.to_owned(), key.to_owned());
                self.write_tx(async move |tx| {
                    $crate::operator::grant(tx, &external, &key, amount, now()).await
                })
                .await
            }

            async fn acquire_lease(
                &self,
                resource: &str,
                owner: &str,
                now_ms: i64,
                ttl_ms: i64,
            ) -> $crate::StoreResult<$crate::LeaseGrant> {
                let (resource, owner) = (resource.to_owned(), owner.to_owned());
                self.write_tx(async move |tx| {
                    $crate::leases::acquire(tx, &resource, &owner, now_ms, ttl_ms).await
                })
                .await
            }

            async fn renew_leases(
                &self,
                owner: &str,
                now_ms: i64,
                ttl_ms: i64,
            ) -> $crate::StoreResult<u64> {
                let owner = owner.to_owned();
                let until = now_ms.saturating_add(ttl_ms);
                self.write_tx(async move |tx| $crate::tx::Tx::renew_leases(tx, &owner, until).await)
                    .await
            }

            async fn expired_leases(
                &self,
                prefix: &str,
                now_ms: i64,
            ) -> $crate::StoreResult<Vec<String>> {
                let prefix = prefix.to_owned();
                self.read_tx(async move |tx| {
                    $crate::tx::Tx::expired_leases(tx, &prefix, now_ms).await
                })
                .await
            }

            async fn release_lease(&self, resource: &str, owner: &str) -> $crate::StoreResult<()> {
                let (resource, owner) = (resource.to_owned(), owner.to_owned());
                self.write_tx(async move |tx| {
                    $crate::tx::Tx::release_lease(tx, &resource, &owner).await
                })
                .await
            }

            async fn round_log(
                &self,
                id: &str,
                from_seq: u64,
                limit: u32,
            ) -> $crate::StoreResult<Vec<$crate::LogRow>> {
                let id = id.to_owned();
                self.read_tx(async move |tx| {
                    $crate::tx::Tx::round_log(tx, &id, from_seq, limit).await
                })
                .await
            }

            async fn sequence_log(
                &self,
                max: u32,
                sign: $crate::SignFn,
            ) -> $crate::StoreResult<Option<$crate::LogStep>> {
                // Read and hashed beside the writer; only the new rows are written on it.
                let plan = self
                    .read_tx(async move |tx| $crate::translog::plan(tx, max).await)
                    .await?;
                let Some(plan) = plan else {
                    return Ok(None);
                };
                let planned = $crate::translog::prepare(plan, sign)?;
                self.write_tx(async move |tx| {
                    $crate::translog::append_planned(tx, planned, now()).await
                })
                .await
                .map(Some)
            }

            async fn log_checkpoint(&self) -> $crate::StoreResult<Option<$crate::LogCheckpoint>> {
                self.read_tx(async move |tx| $crate::translog::with_cosignatures(tx, None).await)
                    .await
            }

            async fn log_cosigned_checkpoint(
                &self,
                min: u32,
            ) -> $crate::StoreResult<Option<$crate::LogCheckpoint>> {
                self.read_tx(async move |tx| $crate::translog::cosigned(tx, min).await)
                    .await
            }

            async fn add_log_cosignature(
                &self,
                size: u64,
                witness: &str,
                line: &str,
            ) -> $crate::StoreResult<()> {
                let (witness, line) = (witness.to_owned(), line.to_owned());
                self.write_tx(async move |tx| {
                    $crate::translog::LogTx::insert_log_cosignature(
                        tx,
                        size,
                        &witness,
                        &line,
                        now(),
                    )
                    .await
                })
                .await
            }

            async fn log_cosigned_size(&self, witness: &str) -> $crate::StoreResult<Option<u64>> {
                let witness = witness.to_owned();
                self.read_tx(async move |tx| {
                    $crate::translog::LogTx::log_cosigned_size(tx, &witness).await
                })
                .await
            }

            async fn log_hashes(
                &self,
                indexes: &[u64],
            ) -> $crate::StoreResult<Vec<(u64, [u8; 32])>> {
                let indexes = indexes.to_vec();
                self.read_tx(async move |tx| $crate::translog::stored_hashes(tx, &indexes).await)
                    .await
            }

            async fn log_leaves(&self, from: u64, count: u32) -> $crate::StoreResult<Vec<Vec<u8>>> {
                self.read_tx(async move |tx| {
                    $crate::translog::LogTx::log_leaves(tx, from, count).await
                })
                .await
            }

            async fn pair_log_entries(&self, pair_id: i64) -> $crate::StoreResult<Vec<Vec<u8>>> {
                let subject = $crate::translog::pair_subject(pair_id);
                self.read_tx(async move |tx| {
                    $crate::translog::LogTx::log_entries_of(tx, &subject).await
                })
                .await
            }

            async fn named_log_entries(
                &self,
                names: Vec<String>,
            ) -> $crate::StoreResult<Vec<Vec<u8>>> {
                if names.is_empty() {
                    return Ok(Vec::new());
                }
                self.read_tx(async move |tx| {
                    $crate::translog::LogTx::log_entries_named(tx, &names).await
                })
                .await
            }

            async fn idempotent_log_entries(
                &self,
                scope: &str,
                key: &str,
            ) -> $crate::StoreResult<Vec<Vec<u8>>> {
                let subject = $crate::translog::subject(scope, key);
                self.read_tx(async move |tx| {
                    $crate::translog::LogTx::log_entries_of(tx, &subject).await
                })
                .await
            }

            async fn log_entry(
                &self,
                leaf_hash: [u8; 32],
            ) -> $crate::StoreResult<Option<$crate::LoggedEntry>> {
                self.read_tx(async move |tx| {
                    $crate::translog::LogTx::log_entry_by_hash(tx, &leaf_hash).await
                })
                .await
            }

            async fn broadcast_events(&self, payloads: &[String]) -> $crate::StoreResult<()> {
                self.send_events(payloads).await
            }

            async fn event_feed(&self) -> $crate::StoreResult<Option<$crate::EventFeed>> {
                self.listen_events().await
            }

            async fn rounds_with_status(
                &self,
                kind: &str,
                status: &str,
            ) -> $crate::StoreResult<Vec<String>> {
                let (kind, status) = (kind.to_owned(), status.to_owned());
                self.read_tx(async move |tx| {
                    $crate::tx::Tx::rounds_with_status(tx, &kind, &status).await
                })
                .await
            }
        }

        /// Row timestamps: wall-clock milliseconds.
        fn now() -> i64 {
            $crate::time::now_ms()
        }
    };
}

pub(crate) use impl_store;
