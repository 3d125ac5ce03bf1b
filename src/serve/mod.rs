//! The web oracle behind `mancala serve`: one page (embedded, no network needed) and a JSON
//! API under `/api/` over the same library calls the command line makes, so a value on the
//! page is the value `mancala … --json` prints for the same input. `docs/api.md` documents it.
//!
//! One listening socket, a fixed pool of worker threads taking requests from it (a running
//! search holds one worker; the others go on serving), and at most `max_searches` searches at
//! once (a search table is 64 MiB; more are answered 503 instead of exhausting memory).

mod http;
mod kiothi;
mod lukho;
mod oware;

use http::{ApiError, Reply};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

pub use http::MAX_BODY;
pub use oware::DEFAULT_SECONDS;

/// What the server answers from: the databases it opened and where the Lukho results are.
pub struct Oracle {
    /// Oware databases, one per rule set found (repetitions `split`).
    pub oware: Vec<crate::retro::oware::Database>,
    /// Kiothi endgame tables (default rules), if any.
    pub kiothi: Option<crate::retro::kiothi::Database>,
    /// The directory of the committed Lukho results (`results/lukho`), browsed read-only.
    pub results: Option<PathBuf>,
    /// Most searches running at once.
    pub max_searches: usize,
    /// Longest search a request may ask for, in seconds.
    pub max_seconds: f64,
    searches: Arc<AtomicUsize>,
}

impl Oracle {
    pub fn new(
        oware: Vec<crate::retro::oware::Database>,
        kiothi: Option<crate::retro::kiothi::Database>,
        results: Option<PathBuf>,
    ) -> Self {
        Oracle { oware, kiothi, results, max_searches: 4, max_seconds: 60.0, searches: Arc::new(AtomicUsize::new(0)) }
    }

    /// A slot for one search, released when dropped (wherever the guard has been moved: into
    /// a stream that never runs, too); 503 when every slot is taken.
    fn search_slot(&self) -> Result<SearchSlot, ApiError> {
        let taken = self.searches.fetch_add(1, Ordering::SeqCst);
        let slot = SearchSlot(self.searches.clone());
        if taken >= self.max_searches {
            drop(slot);
            return Err(ApiError::new(503, format!("{taken} searches are running (the most at once); try again")));
        }
        Ok(slot)
    }

    /// Searches running now.
    pub fn searches_running(&self) -> usize {
        self.searches.load(Ordering::SeqCst)
    }

    /// The limits of a request's search, the one place `--max-time` is enforced: whatever the
    /// request names (a depth, a node count, a time), the search stops after at most
    /// `max_seconds`; a request that names nothing gets [`DEFAULT_SECONDS`] (or less).
    fn search_limits(&self, depth: Option<u32>, seconds: Option<f64>, nodes: Option<u64>) -> crate::search::Limits {
        let named = if depth.is_some() || nodes.is_some() { self.max_seconds } else { DEFAULT_SECONDS };
        let seconds = seconds.unwrap_or(named).min(self.max_seconds);
        crate::search::Limits { depth, seconds: Some(seconds), nodes }
    }
}

/// A taken search slot; dropping it frees the slot.
struct SearchSlot(Arc<AtomicUsize>);

impl Drop for SearchSlot {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// The search or database read `f`, refused (500) when it read a damaged block: such a value
/// read as 0 and spoils the answer. Only the answers that read the block fail; the error names
/// the layer and block, not the server's files.
fn intact<R>(f: impl FnOnce() -> R) -> Result<R, ApiError> {
    match crate::store::damage::reads(f) {
        (r, None) => Ok(r),
        (_, Some(d)) => Err(ApiError::new(500, format!("db: {d}; answers that need it are refused"))),
    }
}

/// A bound listening socket, not yet serving.
pub struct Server {
    inner: tiny_http::Server,
}

impl Server {
    /// Bind `addr` (port 0: any free port; [`Server::addr`] tells which).
    pub fn bind(addr: SocketAddr) -> std::io::Result<Server> {
        tiny_http::Server::http(addr).map(|inner| Server { inner }).map_err(std::io::Error::other)
    }

    pub fn addr(&self) -> SocketAddr {
        match self.inner.server_addr() {
            tiny_http::ListenAddr::IP(a) => a,
            #[allow(unreachable_patterns)]
            _ => unreachable!("bound to an IP address"),
        }
    }

    /// Serve forever with `workers` threads.
    pub fn run(self, oracle: Oracle, workers: usize) -> ! {
        let server = Arc::new(self.inner);
        let oracle = Arc::new(oracle);
        let handles: Vec<_> = (0..workers.max(1))
            .map(|_| {
                let (server, oracle) = (server.clone(), oracle.clone());
                std::thread::spawn(move || loop {
                    match server.recv() {
                        Ok(req) => handle(&oracle, req),
                        Err(_) => std::thread::sleep(std::time::Duration::from_millis(10)),
                    }
                })
            })
            .collect();
        for h in handles {
            let _ = h.join();
        }
        unreachable!("workers never return")
    }
}

const INDEX_HTML: &str = include_str!("../../web/index.html");
const APP_JS: &str = include_str!("../../web/app.js");
const STYLE_CSS: &str = include_str!("../../web/style.css");

/// What a path is: each the server answers, and the method it answers it to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Route {
    Page,
    Script,
    Style,
    Info,
    OwareGame,
    OwareSolve,
    OwareAnalyse,
    LukhoPlay,
    LukhoOpening,
    LukhoRaces,
    LukhoResults,
    /// `/api/lukho/results/PATH`: one file of the results directory.
    LukhoResultFile,
    KiothiSolve,
    KiothiPlay,
}

/// The method a route answers to; `Get` routes answer `HEAD` too.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Verb {
    Get,
    Post,
}

/// Every path the server answers: the one table (a path in it asked with another method is
/// 405, any other path 404).
const ROUTES: [(&str, Verb, Route); 14] = [
    ("/", Verb::Get, Route::Page),
    ("/index.html", Verb::Get, Route::Page),
    ("/app.js", Verb::Get, Route::Script),
    ("/style.css", Verb::Get, Route::Style),
    ("/api/info", Verb::Get, Route::Info),
    ("/api/oware/game", Verb::Post, Route::OwareGame),
    ("/api/oware/solve", Verb::Post, Route::OwareSolve),
    ("/api/oware/analyse", Verb::Post, Route::OwareAnalyse),
    ("/api/lukho/play", Verb::Post, Route::LukhoPlay),
    ("/api/lukho/opening", Verb::Post, Route::LukhoOpening),
    ("/api/lukho/races", Verb::Post, Route::LukhoRaces),
    ("/api/lukho/results", Verb::Get, Route::LukhoResults),
    ("/api/kiothi/solve", Verb::Post, Route::KiothiSolve),
    ("/api/kiothi/play", Verb::Post, Route::KiothiPlay),
];
const RESULT_FILES: &str = "/api/lukho/results/";

fn route(path: &str) -> Option<(Verb, Route)> {
    if path.starts_with(RESULT_FILES) {
        return Some((Verb::Get, Route::LukhoResultFile));
    }
    ROUTES.iter().find(|(p, _, _)| *p == path).map(|&(_, v, r)| (v, r))
}

fn handle(o: &Arc<Oracle>, mut req: tiny_http::Request) {
    let url = req.url().to_string();
    let path = url.split_once('?').map_or(url.as_str(), |(p, _)| p).to_string();
    let method = req.method().clone();
    use tiny_http::Method;
    // A panic in a handler is a bug; the worker stays alive and the client gets a 500.
    let reply = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| -> Result<Reply, ApiError> {
        let (verb, r) = route(&path).ok_or_else(|| ApiError::new(404, format!("{path}: no such page or API")))?;
        let allowed = match verb {
            Verb::Get => matches!(method, Method::Get | Method::Head),
            Verb::Post => method == Method::Post,
        };
        if !allowed {
            return Err(ApiError::new(405, format!("{path}: method {method} not allowed")));
        }
        match r {
            Route::Page => Ok(Reply::Asset(INDEX_HTML, "text/html; charset=utf-8")),
            Route::Script => Ok(Reply::Asset(APP_JS, "text/javascript; charset=utf-8")),
            Route::Style => Ok(Reply::Asset(STYLE_CSS, "text/css; charset=utf-8")),
            Route::Info => Ok(Reply::Json(info(o))),
            Route::OwareGame => oware::game(&http::body(&mut req)?).map(Reply::Json),
            Route::OwareSolve => oware::solve(o, &http::body(&mut req)?).map(Reply::Json),
            Route::OwareAnalyse => oware::analyse(o, &http::body(&mut req)?),
            Route::LukhoPlay => lukho::play(&http::body(&mut req)?).map(Reply::Json),
            Route::LukhoOpening => lukho::opening(&http::body(&mut req)?).map(Reply::Json),
            Route::LukhoRaces => lukho::races(&http::body(&mut req)?).map(Reply::Json),
            Route::LukhoResults => lukho::results_list(o).map(Reply::Json),
            Route::LukhoResultFile => lukho::results_file(o, &path[RESULT_FILES.len()..]),
            Route::KiothiSolve => kiothi::solve(o, &http::body(&mut req)?).map(Reply::Json),
            Route::KiothiPlay => kiothi::play(&http::body(&mut req)?).map(Reply::Json),
        }
    }));
    let reply = match reply {
        Ok(r) => r,
        Err(_) => Err(ApiError::new(500, "internal error (a bug: please report the request)".into())),
    };
    http::send(req, reply);
}

/// What the page needs to build its controls: variant names (the CLI's), databases, limits.
fn info(o: &Oracle) -> serde_json::Value {
    use crate::games::{kiothi, lukho, oware as ow};
    use crate::variant::Variant;
    use serde_json::json;
    let listed = |names: Vec<(&str, &str)>| {
        names.into_iter().map(|(n, d)| json!({"name": n, "description": d})).collect::<Vec<_>>()
    };
    fn variants<T: Variant>() -> Vec<(&'static str, &'static str)> {
        T::ALL.iter().map(|v| (v.name(), v.description())).collect()
    }
    json!({
        "oware": {
            "grand_slam": listed(variants::<ow::GrandSlam>()),
            "databases": o.oware.iter().map(|d| json!({"rules": d.rules().to_json(), "max_stones": d.max_layer()})).collect::<Vec<_>>(),
        },
        "lukho": {
            "chain": listed(variants::<lukho::Chain>()),
            // What `lukho play --race` accepts, each with its help line.
            "races": listed(variants::<lukho::race::Race>().into_iter().chain([("speeds:K", lukho::race::SPEEDS_LABEL)]).collect()),
            "race_rule": lukho::race::RACE_RULE,
            "results": o.results.is_some(),
        },
        "kiothi": {
            "rules": kiothi::Rules::default().to_json(),
            "tables": o.kiothi.as_ref().map(|d| d.max_layer()),
        },
        "limits": {"max_body_bytes": MAX_BODY, "max_seconds": o.max_seconds, "max_searches": o.max_searches},
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A stream that never runs (its client left before the response began) gives its search
    /// slot back when it is dropped.
    #[test]
    fn an_unrun_stream_frees_its_slot() {
        let o = Arc::new(Oracle::new(vec![], None, None));
        let body = serde_json::json!({"pits": vec![4u8; 12], "time": 0.1});
        let reply = oware::analyse(&o, &body).unwrap();
        assert_eq!(o.searches_running(), 1);
        drop(reply);
        assert_eq!(o.searches_running(), 0);
        // And a stream that runs frees it when it ends.
        let Reply::Lines(stream) = oware::analyse(&o, &body).unwrap() else { panic!("a stream") };
        let mut lines = 0;
        stream(&mut |_| {
            lines += 1;
            true
        });
        assert!(lines >= 1);
        assert_eq!(o.searches_running(), 0);
    }

    /// `--max-time` bounds every search, whatever the request names.
    #[test]
    fn search_limits_are_clamped_to_max_time() {
        let mut o = Oracle::new(vec![], None, None);
        o.max_seconds = 3.0;
        let l = o.search_limits(Some(200), None, None);
        assert_eq!((l.depth, l.seconds, l.nodes), (Some(200), Some(3.0), None));
        let l = o.search_limits(None, None, Some(u64::MAX));
        assert_eq!((l.seconds, l.nodes), (Some(3.0), Some(u64::MAX)));
        assert_eq!(o.search_limits(None, None, None).seconds, Some(3.0));
        assert_eq!(o.search_limits(None, Some(2.0), None).seconds, Some(2.0));
        o.max_seconds = 60.0;
        assert_eq!(o.search_limits(None, None, None).seconds, Some(DEFAULT_SECONDS));
    }
}
