//! The log in PostgreSQL: one read-only transaction, rows fetched through a portal a batch at a
//! time (memory does not grow with the log), every column read as text. TLS as the URL's
//! `sslmode` asks, with libpq's meanings: `disable` none; `prefer` (the default) and `require`
//! encrypt without checking the certificate; `verify-ca` checks it against the system's roots;
//! `verify-full` checks the host name too. The URL's password is never shown: errors name the
//! server by its redacted URL (`location::redacted`).

use std::borrow::Cow;
use std::sync::Arc;
use std::time::Duration;

use postgres::types::ToSql;
use postgres::Config;
use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::client::WebPkiServerVerifier;
use rustls::crypto::CryptoProvider;
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use rustls::{CertificateError, DigitallySignedStruct, SignatureScheme};

use super::location::redacted;
use super::{push_row, select_list, SourceStats};
use crate::audit::Rows;

/// Rows per fetch from the portal.
const BATCH: i32 = 5_000;
/// How long a connection may take when the URL sets no `connect_timeout`.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

pub fn read(url: &str, since: Option<&str>, tally: &mut dyn Rows) -> Result<SourceStats, String> {
    let shown = redacted(url);
    // The client's own errors never hold the URL; still, nothing it says is shown unredacted.
    let fail = |e: postgres::Error| format!("{shown}: {}", scrub(&describe(&e), url));
    let (url_for_client, verify) = tls_mode(url);
    let mut config: Config = url_for_client.parse().map_err(|e: postgres::Error| {
        format!(
            "{shown}: not a PostgreSQL URL: {}",
            scrub(&e.to_string(), url)
        )
    })?;
    if config.get_connect_timeout().is_none() {
        config.connect_timeout(CONNECT_TIMEOUT);
    }
    let tls = tokio_postgres_rustls::MakeRustlsConnect::new(
        tls_config(verify).map_err(|e| format!("{shown}: cannot set up TLS: {e}"))?,
    );
    let mut client = config.connect(tls).map_err(fail)?;
    let mut transaction = client
        .build_transaction()
        .read_only(true)
        .start()
        .map_err(fail)?;
    let columns: Vec<String> = transaction
        .query(
            "SELECT column_name::text FROM information_schema.columns \
             WHERE table_name = 'audit_events' AND table_schema = current_schema()",
            &[],
        )
        .map_err(fail)?
        .iter()
        .map(|row| row.get::<_, String>(0))
        .collect();
    let (list, warnings) = select_list(&shown, &columns, "::text")?;
    let filter = "($1::text IS NULL OR timestamp::text >= $1::text)";
    let since: &(dyn ToSql + Sync) = &since;
    let stats_row = transaction
        .query_one(
            &format!(
                "SELECT COUNT(*), COUNT(DISTINCT run_id), MIN(timestamp::text COLLATE \"C\"), \
                 MAX(timestamp::text COLLATE \"C\") FROM audit_events WHERE {filter}"
            ),
            &[since],
        )
        .map_err(fail)?;
    let stats = SourceStats {
        rows: stats_row.get::<_, i64>(0) as u64,
        runs: stats_row.get::<_, i64>(1) as u64,
        from: stats_row.get(2),
        to: stats_row.get(3),
        warnings,
    };
    // Byte order, as SQLite sorts: a pair's rows together, and the same order whatever the
    // database's collation.
    let order = ["run_id", "agent_id", "timestamp", "event_id"]
        .iter()
        .map(|c| format!("{c}::text COLLATE \"C\""))
        .collect::<Vec<_>>()
        .join(", ");
    let portal = transaction
        .bind(
            &format!(
                "SELECT {} FROM audit_events WHERE run_id IS NOT NULL AND agent_id IS NOT NULL \
                 AND {filter} ORDER BY {order}",
                list.join(", ")
            ),
            &[since],
        )
        .map_err(fail)?;
    loop {
        let rows = transaction.query_portal(&portal, BATCH).map_err(fail)?;
        if rows.is_empty() {
            break;
        }
        for row in &rows {
            let field = |i: usize| {
                row.try_get::<_, Option<&str>>(i)
                    .ok()
                    .flatten()
                    .map(Cow::Borrowed)
            };
            push_row(tally, std::array::from_fn(field));
        }
    }
    transaction.commit().map_err(fail)?;
    Ok(stats)
}

enum Verify {
    Nothing,
    Ca,
    Full,
}

/// The TLS set-up for a connection: the system's root certificates (as libpq's `verify-full`
/// with the system store), checked as `verify` asks. `require` (and `prefer`) encrypt without
/// checking the certificate, as libpq does when no root certificate is configured.
fn tls_config(verify: Verify) -> Result<rustls::ClientConfig, String> {
    // ring, not aws-lc-rs: it builds with any C compiler, so the wheels cross-build (zig) for
    // every target; it lacks only post-quantum key exchange, which the deprecation is about.
    #[allow(deprecated)]
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let builder = rustls::ClientConfig::builder_with_provider(provider.clone())
        .with_safe_default_protocol_versions()
        .map_err(|e| e.to_string())?;
    let chain = match verify {
        Verify::Nothing => None,
        Verify::Ca | Verify::Full => {
            let mut roots = rustls::RootCertStore::empty();
            // Certificates the store cannot parse are skipped, as every TLS client does.
            for cert in rustls_native_certs::load_native_certs().certs {
                let _ = roots.add(cert);
            }
            let verifier =
                WebPkiServerVerifier::builder_with_provider(Arc::new(roots), provider.clone())
                    .build()
                    .map_err(|e| format!("no root certificate to check the server's with: {e}"))?;
            Some(verifier)
        }
    };
    let config = match (verify, chain) {
        (Verify::Full, Some(chain)) => builder.with_webpki_verifier(chain).with_no_client_auth(),
        (_, chain) => builder
            .dangerous()
            .with_custom_certificate_verifier(Arc::new(Lenient { chain, provider }))
            .with_no_client_auth(),
    };
    Ok(config)
}

/// A certificate check that asks less than `verify-full`: with a chain verifier (`verify-ca`),
/// the certificate must chain to a root but may name another host; without one (`require`),
/// any certificate is taken. The handshake's signatures are always verified.
#[derive(Debug)]
struct Lenient {
    chain: Option<Arc<WebPkiServerVerifier>>,
    provider: Arc<CryptoProvider>,
}

impl ServerCertVerifier for Lenient {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        server_name: &ServerName<'_>,
        ocsp_response: &[u8],
        now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        let Some(chain) = &self.chain else {
            return Ok(ServerCertVerified::assertion());
        };
        match chain.verify_server_cert(end_entity, intermediates, server_name, ocsp_response, now) {
            Err(rustls::Error::InvalidCertificate(
                CertificateError::NotValidForName | CertificateError::NotValidForNameContext { .. },
            )) => Ok(ServerCertVerified::assertion()),
            other => other,
        }
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls12_signature(
            message,
            cert,
            dss,
            &self.provider.signature_verification_algorithms,
        )
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls13_signature(
            message,
            cert,
            dss,
            &self.provider.signature_verification_algorithms,
        )
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.provider
            .signature_verification_algorithms
            .supported_schemes()
    }
}

/// The client knows `sslmode` `disable`, `prefer` and `require`: `verify-ca` and `verify-full`
/// are read here and passed on as `require`, with the certificate checks they ask for.
fn tls_mode(url: &str) -> (String, Verify) {
    for (mode, verify) in [("verify-full", Verify::Full), ("verify-ca", Verify::Ca)] {
        let param = format!("sslmode={mode}");
        if url.contains(&param) {
            return (url.replace(&param, "sslmode=require"), verify);
        }
    }
    (url.to_owned(), Verify::Nothing)
}

/// The client's error with its causes: its own text is often only `db error` or `error
/// connecting to server`, the server's message being the cause.
fn describe(error: &postgres::Error) -> String {
    if let Some(db) = error.as_db_error() {
        return format!("{} {}: {}", db.severity(), db.code().code(), db.message());
    }
    let mut text = error.to_string();
    let mut cause = std::error::Error::source(error);
    while let Some(inner) = cause {
        text.push_str(": ");
        text.push_str(&inner.to_string());
        cause = inner.source();
    }
    text
}

/// Removes the URL's password from a message, should a message ever carry it.
fn scrub(message: &str, url: &str) -> String {
    let password = url
        .split_once("://")
        .and_then(|(_, rest)| rest.rsplit_once('@'))
        .and_then(|(user, _)| user.split_once(':'))
        .map(|(_, password)| password)
        .filter(|p| !p.is_empty());
    match password {
        Some(password) => message.replace(password, "***"),
        None => message.to_owned(),
    }
}
