//! Players, their dice seed pairs and bets, and the operator's players and chip grants.
//!
//! The trait, then its one implementation, expanded for each backend by
//! [`super::impl_store`].

use async_trait::async_trait;

use crate::{
    error::StoreResult,
    operator::{ChipGrant, OperatorPlayer},
    types::{
        BetReceipt, BetRequest, BetRow, NewSeedPair, Page, Player, RecordsFn, RevealedPair,
        Rotation, SeedPair,
    },
};

/// Players, their dice seed pairs and bets, and the operator's players and chip grants. Each method is one transaction.
#[async_trait]
pub trait AccountStore: Send + Sync + 'static {
    /// Creates a player with `balance` chips and a first seed pair.
    async fn create_player(
        &self,
        token_hash: &str,
        balance: u128,
        pair: NewSeedPair,
    ) -> StoreResult<(Player, SeedPair)>;

    /// Finds a player by the SHA-256 of their token (compared in constant time).
    async fn player_by_token(&self, token_hash: &str) -> StoreResult<Player>;

    /// A player by id.
    async fn player(&self, id: i64) -> StoreResult<Player>;

    /// The player's current, unrevealed seed pair.
    async fn current_pair(&self, player_id: i64) -> StoreResult<SeedPair>;

    /// Changes the client seed of the current pair if it is still the pair
    /// with `commitment` and no bet used it yet; `None` (nothing changed)
    /// otherwise.
    async fn set_client_seed(
        &self,
        player_id: i64,
        commitment: &str,
        client_seed: &str,
    ) -> StoreResult<Option<SeedPair>>;

    /// Places a bet atomically: a key already used returns its first bet
    /// (`replayed`); otherwise the settle function decides on the next nonce
    /// and the nonce, balance and bet commit together.
    async fn place_bet(&self, bet: BetRequest) -> StoreResult<BetReceipt>;

    /// The player's bets, newest first, optionally of one pair.
    async fn bets(
        &self,
        player_id: i64,
        pair_id: Option<i64>,
        page: Page,
    ) -> StoreResult<Vec<BetRow>>;

    /// Reveals the current pair, stores its records and commits `next`.
    async fn rotate(
        &self,
        player_id: i64,
        next: NewSeedPair,
        records: RecordsFn,
    ) -> StoreResult<Rotation>;

    /// The player's revealed pairs, newest first.
    async fn revealed_pairs(&self, player_id: i64, page: Page) -> StoreResult<Vec<RevealedPair>>;

    /// Whether the operator created `player_id` for one of its users
    /// (`POST /v1/operator/players`): a player of the house's.
    async fn is_operator_player(&self, player_id: i64) -> StoreResult<bool>;

    /// Ids of the players whose current pair is unrevealed, above `after`,
    /// ascending, at most `limit` (a restore retires those pairs).
    async fn players_with_unrevealed_pair(&self, after: i64, limit: u32) -> StoreResult<Vec<i64>>;

    /// The operator's player for its user `external_id`, created with
    /// `token_hash`, `balance` and `pair` if new (see [`operator`](crate::operator)).
    async fn operator_player(
        &self,
        external_id: &str,
        token_hash: &str,
        balance: u128,
        pair: NewSeedPair,
    ) -> StoreResult<OperatorPlayer>;

    /// Replaces the token of `external_id`'s player (`None`: revokes it);
    /// the player id and the hash it replaced.
    async fn set_operator_player_token(
        &self,
        external_id: &str,
        token_hash: Option<&str>,
    ) -> StoreResult<(i64, String)>;

    /// Grants free play chips to `external_id`'s player, once per `key`.
    async fn grant_chips(
        &self,
        external_id: &str,
        key: &str,
        amount: u128,
    ) -> StoreResult<ChipGrant>;
}

/// Implements [`AccountStore`] for a backend (see [`super::impl_store`]).
macro_rules! impl_accounts {
    ($backend:ty) => {
        #[async_trait::async_trait]
        impl $crate::api::accounts::AccountStore for $backend {
            async fn create_player(
                &self,
                token_hash: &str,
                balance: u128,
                pair: $crate::types::NewSeedPair,
            ) -> $crate::error::StoreResult<($crate::types::Player, $crate::types::SeedPair)> {
                let sealed = $crate::accounts::seal_pair(&self.cipher, &pair)?;
                let token_hash = token_hash.to_owned();
                self.write_tx(async move |tx| {
                    $crate::accounts::create_player(tx, &token_hash, balance, &sealed, now()).await
                })
                .await
            }

            async fn player_by_token(
                &self,
                token_hash: &str,
            ) -> $crate::error::StoreResult<$crate::types::Player> {
                let token_hash = token_hash.to_owned();
                self.read_tx(async move |tx| {
                    $crate::accounts::player_by_token(tx, &token_hash).await
                })
                .await
            }

            async fn player(&self, id: i64) -> $crate::error::StoreResult<$crate::types::Player> {
                self.read_tx(async move |tx| $crate::accounts::player(tx, id, false).await)
                    .await
            }

            async fn current_pair(
                &self,
                player_id: i64,
            ) -> $crate::error::StoreResult<$crate::types::SeedPair> {
                self.read_tx(async move |tx| $crate::accounts::current_pair(tx, player_id).await)
                    .await
            }

            async fn set_client_seed(
                &self,
                player_id: i64,
                commitment: &str,
                client_seed: &str,
            ) -> $crate::error::StoreResult<Option<$crate::types::SeedPair>> {
                let (commitment, client_seed) = (commitment.to_owned(), client_seed.to_owned());
                self.write_tx(async move |tx| {
                    $crate::accounts::set_client_seed(tx, player_id, &commitment, &client_seed)
                        .await
                })
                .await
            }

            async fn place_bet(
                &self,
                bet: $crate::types::BetRequest,
            ) -> $crate::error::StoreResult<$crate::types::BetReceipt> {
                // Each backend serializes a player's bets its own way.
                self.place_bet_at(bet, now()).await
            }

            async fn bets(
                &self,
                player_id: i64,
                pair_id: Option<i64>,
                page: $crate::types::Page,
            ) -> $crate::error::StoreResult<Vec<$crate::types::BetRow>> {
                self.read_tx(async move |tx| {
                    $crate::accounts::bets(tx, player_id, pair_id, page).await
                })
                .await
            }

            async fn rotate(
                &self,
                player_id: i64,
                next: $crate::types::NewSeedPair,
                records: $crate::types::RecordsFn,
            ) -> $crate::error::StoreResult<$crate::types::Rotation> {
                let sealed = $crate::accounts::seal_pair(&self.cipher, &next)?;
                let cipher = std::sync::Arc::clone(&self.cipher);
                self.write_tx(async move |tx| {
                    $crate::accounts::rotate(tx, &cipher, player_id, &sealed, records, now()).await
                })
                .await
            }

            async fn players_with_unrevealed_pair(
                &self,
                after: i64,
                limit: u32,
            ) -> $crate::error::StoreResult<Vec<i64>> {
                self.read_tx(async move |tx| {
                    $crate::tx::Tx::players_with_unrevealed_pair(tx, after, limit).await
                })
                .await
            }

            async fn is_operator_player(&self, player_id: i64) -> $crate::error::StoreResult<bool> {
                self.read_tx(async move |tx| {
                    $crate::tx::Tx::is_operator_player(tx, player_id).await
                })
                .await
            }

            async fn revealed_pairs(
                &self,
                player_id: i64,
                page: $crate::types::Page,
            ) -> $crate::error::StoreResult<Vec<$crate::types::RevealedPair>> {
                self.read_tx(async move |tx| {
                    $crate::tx::Tx::revealed_pairs(tx, player_id, page).await
                })
                .await
            }

            async fn operator_player(
                &self,
                external_id: &str,
                token_hash: &str,
                balance: u128,
                pair: $crate::types::NewSeedPair,
            ) -> $crate::error::StoreResult<$crate::operator::OperatorPlayer> {
                let sealed = $crate::accounts::seal_pair(&self.cipher, &pair)?;
                let (external, token) = (external_id.to_owned(), token_hash.to_owned());
                let created = self
                    .write_tx(async move |tx| {
                        $crate::operator::find_or_create(
                            tx,
                            &external,
                            &token,
                            balance,
                            &sealed,
                            now(),
                        )
                        .await
                    })
                    .await;
                match created {
                    Err($crate::error::StoreError::Conflict { code, .. })
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
            ) -> $crate::error::StoreResult<(i64, String)> {
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
            ) -> $crate::error::StoreResult<$crate::operator::ChipGrant> {
                let (external, key) = (external_id.to_owned(), key.to_owned());
                self.write_tx(async move |tx| {
                    $crate::operator::grant(tx, &external, &key, amount, now()).await
                })
                .await
            }
        }
    };
}

pub(crate) use impl_accounts;
