//! `loopconv mcp`: the loop tools as a Model Context Protocol server on standard input and
//! output (rmcp), for coding agents that draft loops.
//!
//! Each tool reads a loop from a `path` inside the client's roots or from its `text`, runs
//! the library's pipeline as the command of the same name does (the helpers of the
//! command modules, not a copy of them), and answers with structured content: the
//! diagnostics as `check --format json` writes them, and what the tool made. A loop with
//! errors is a tool result with `isError`, never a protocol error; so is a mistake in the
//! arguments. The work runs on blocking threads, a few at a time, and a cancelled request
//! stops waiting for it.

mod files;
mod handler;
mod log;
mod transport;
mod types;
mod work;

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::Result;
use clap::ValueEnum as _;
use rmcp::handler::server::common::schema_for_type;
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::model::{CallToolResult, ContentBlock, ErrorCode, ErrorData, JsonObject};
use rmcp::service::RequestContext;
use rmcp::{RoleServer, ServiceExt as _, tool, tool_router};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use loopconv::analysis::{Decision, RUNTIME_MAX_STEPS, Runtime};
use loopconv::back;
use loopconv::diag::{self, Diagnostic, docs};
use loopconv::scaffold::Archetype;
use loopconv::{Format, LoadOptions, Loaded, Target};

use self::files::Roots;
use self::types::{
    CheckIn, CheckOut, CodeRow, ConvertIn, ConvertOut, Diagnostics, DiffIn, DiffOut, ExplainIn,
    ExplainOut, GraphIn, GraphOut, ListCodesOut, LoopIn, NewIn, NewOut, Nothing, PathsIn, PathsOut,
    SchemaIn, SchemaOut, WalkIn, WalkOut, input_schema, object, output_schema,
};
use self::work::{
    ConvertJob, GraphJob, check_work, convert_work, diff_work, format_schema, graph_work,
    outcome_schema_work, paths_work, walk_work,
};
use crate::cli::{Color, Global, Limits, McpArgs, MessageFormat, Options};

/// Serve until the client closes standard input.
pub(crate) fn run(a: &McpArgs) -> Result<ExitCode> {
    crate::cli::memory::memory_for_server();
    let limits = a.limits;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .thread_name("mcp")
        .build()?;
    runtime.block_on(async move {
        let server = Server::new(limits);
        let service = server
            .serve(transport::Stdio::new())
            .await
            .map_err(|e| anyhow::anyhow!("starting the MCP session: {e}"))?;
        service
            .waiting()
            .await
            .map_err(|e| anyhow::anyhow!("the MCP session: {e}"))?;
        anyhow::Ok(())
    })?;
    // The blocking threads of requests the client cancelled may still run: not waited for.
    runtime.shutdown_background();
    Ok(ExitCode::SUCCESS)
}

/// The server: the input limits, how many tool calls work at once, and the tools.
#[derive(Clone)]
pub(super) struct Server {
    limits: Limits,
    permits: Arc<tokio::sync::Semaphore>,
    /// The log messages the client wants (`logging/setLevel`).
    log: Arc<log::Log>,
    tool_router: ToolRouter<Server>,
}

// ---------------------------------------------------------------------------------------
// Results.

/// Why a call has no result of its own: a mistake in the call (arguments, a path), which
/// is a tool error the agent can correct, or a protocol error (a cancelled request).
enum Call {
    Refused(String),
    Protocol(ErrorData),
}

impl From<String> for Call {
    fn from(message: String) -> Call {
        Call::Refused(message)
    }
}

impl From<&str> for Call {
    fn from(message: &str) -> Call {
        Call::Refused(message.to_owned())
    }
}

/// A tool's answer: its result, a refused call as a tool error (`isError`), or a protocol
/// error.
fn finish(r: Result<CallToolResult, Call>) -> Result<CallToolResult, ErrorData> {
    match r {
        Ok(result) => Ok(result),
        Err(Call::Refused(message)) => Ok(refused(message)),
        Err(Call::Protocol(e)) => Err(e),
    }
}

/// A tool error for a mistake in the call (arguments, a path): a message, `isError`.
fn refused(message: impl Into<String>) -> CallToolResult {
    CallToolResult::error(vec![ContentBlock::text(message.into())])
}

/// A structured result, `isError` when `failed`.
fn answer<T: Serialize>(out: &T, failed: bool) -> CallToolResult {
    let value = serde_json::to_value(out).unwrap_or(Value::Null);
    if failed {
        CallToolResult::structured_error(value)
    } else {
        CallToolResult::structured(value)
    }
}

fn diagnostics_of(items: &[Diagnostic]) -> Diagnostics {
    Diagnostics {
        diagnostics: items.iter().map(object).collect(),
        errors: items
            .iter()
            .filter(|d| d.severity == diag::Severity::Error)
            .count(),
        warnings: items
            .iter()
            .filter(|d| d.severity == diag::Severity::Warning)
            .count(),
    }
}

/// The arguments of a call as `T`; a mistake (a missing or unknown argument, a wrong
/// type) is a tool error naming it, so that the agent can correct the call.
fn arguments<T: for<'de> Deserialize<'de> + JsonSchema + 'static>(
    args: JsonObject,
) -> Result<T, String> {
    let schema = schema_for_type::<T>();
    if let Some(props) = schema.get("properties").and_then(Value::as_object) {
        let unknown: Vec<&String> = args.keys().filter(|k| !props.contains_key(*k)).collect();
        if !unknown.is_empty() {
            let known: Vec<&String> = props.keys().collect();
            return Err(format!(
                "unknown argument{} {} (this tool takes {})",
                if unknown.len() == 1 { "" } else { "s" },
                quoted(unknown),
                quoted(known)
            ));
        }
    }
    serde_json::from_value(Value::Object(args)).map_err(|e| format!("bad arguments: {e}"))
}

fn quoted<'a>(names: impl IntoIterator<Item = &'a String>) -> String {
    let names: Vec<String> = names.into_iter().map(|n| format!("`{n}`")).collect();
    names.join(", ")
}

fn parse_format(name: Option<&str>) -> Result<Option<Format>, String> {
    name.map(|n| {
        Format::from_str(n, true).map_err(|_| {
            let names: Vec<&str> = Format::ALL.iter().map(|f| f.name()).collect();
            format!("`{n}` is not a format ({})", names.join(", "))
        })
    })
    .transpose()
}

// ---------------------------------------------------------------------------------------
// Reading inputs.

/// Where a loop comes from, once the roots were consulted.
enum Source {
    /// A file or folder inside the roots: the path to open, which names it in diagnostics.
    Path(PathBuf),
    /// A draft's text and the name it gets.
    Text { shown: String, text: String },
}

/// A loop input, resolved: the source and the format asked for.
struct Input {
    source: Source,
    from: Option<Format>,
}

impl Server {
    fn new(limits: Limits) -> Server {
        let workers = std::thread::available_parallelism().map_or(2, |n| n.get().max(2));
        Server {
            limits,
            permits: Arc::new(tokio::sync::Semaphore::new(workers)),
            log: Arc::new(log::Log::default()),
            tool_router: Self::tool_router(),
        }
    }

    /// Log the file a call wrote.
    async fn log_written(&self, ctx: &RequestContext<RoleServer>, result: &CallToolResult) {
        let written = (result.structured_content.as_ref())
            .and_then(|v| v.get("written"))
            .and_then(Value::as_str);
        if let Some(path) = written {
            self.log.info(ctx, format!("wrote {path}")).await;
        }
    }

    /// The options of the commands a tool runs: JSON diagnostics, the server's limits.
    fn global(&self, strict: bool) -> Global {
        let mut g = Global::default();
        g.options = Options {
            format_flag: Some(MessageFormat::Json),
            format: MessageFormat::Json,
            strict,
            color_flag: Some(Color::Never),
            color: Color::Never,
        };
        g.limits = self.limits;
        g
    }

    /// The client's roots (asked each time: they may change), or the working directory
    /// when it has none. rmcp marks roots deprecated (a later protocol revision drops
    /// them, SEP-2577); the clients of today's revision announce them, and they are the
    /// only way to learn which folders the user opened.
    #[allow(deprecated)]
    async fn roots(&self, ctx: &RequestContext<RoleServer>) -> Result<Roots, String> {
        let asks = ctx
            .peer
            .peer_info()
            .is_some_and(|i| i.capabilities.roots.is_some());
        if !asks {
            return Ok(Roots::from_uris([]));
        }
        let listed = tokio::select! {
            r = ctx.peer.list_roots() => r,
            () = ctx.ct.cancelled() => return Err("cancelled".to_owned()),
        };
        match listed {
            Ok(r) => Ok(Roots::from_uris(r.roots.iter().map(|r| r.uri.as_str()))),
            Err(e) => Err(format!("asking the client for its roots: {e}")),
        }
    }

    /// Resolve a loop input: exactly one of `path` and `text`, a path inside the roots.
    async fn input(&self, i: LoopIn, ctx: &RequestContext<RoleServer>) -> Result<Input, String> {
        let from = parse_format(i.format.as_deref())?;
        let source = match (i.path, i.text) {
            (Some(_), Some(_)) => return Err("give either `path` or `text`, not both".to_owned()),
            (None, None) => {
                return Err(
                    "give the loop as `path` (a file inside the roots) or `text`".to_owned(),
                );
            }
            (None, Some(text)) => Source::Text {
                shown: i.file_name.unwrap_or_else(|| "<text>".to_owned()),
                text,
            },
            (Some(path), None) => {
                if i.file_name.is_some() {
                    return Err("`file_name` names a `text`; a `path` is its own name".to_owned());
                }
                let roots = self.roots(ctx).await?;
                Source::Path(roots.openable(&path)?)
            }
        };
        Ok(Input { source, from })
    }

    /// Where `output` is written, inside the roots.
    async fn output(
        &self,
        output: Option<&str>,
        ctx: &RequestContext<RoleServer>,
    ) -> Result<Option<PathBuf>, String> {
        let Some(out) = output else { return Ok(None) };
        let roots = self.roots(ctx).await?;
        roots.writable(out).map(Some)
    }

    /// Run `work` on a blocking thread once one of the permits is free; a cancelled
    /// request stops waiting (its work is left to finish, and its result dropped).
    async fn blocking(
        &self,
        ctx: &RequestContext<RoleServer>,
        work: impl FnOnce() -> CallToolResult + Send + 'static,
    ) -> Result<CallToolResult, Call> {
        let cancelled = || {
            Call::Protocol(ErrorData::new(
                ErrorCode::INVALID_REQUEST,
                "cancelled",
                None,
            ))
        };
        let permit = tokio::select! {
            p = Arc::clone(&self.permits).acquire_owned() => p,
            () = ctx.ct.cancelled() => return Err(cancelled()),
        };
        let Ok(permit) = permit else {
            return Err(Call::Protocol(ErrorData::internal_error(
                "the server is closing",
                None,
            )));
        };
        let job = tokio::task::spawn_blocking(move || {
            let result = work();
            drop(permit);
            result
        });
        tokio::select! {
            r = job => Ok(r.unwrap_or_else(|e| refused(format!("internal error (a loopconv bug): {e}")))),
            () = ctx.ct.cancelled() => {
                let said = "a call was cancelled while it ran: its work finishes, and its result is dropped";
                self.log.notice(ctx, said.to_owned()).await;
                Err(cancelled())
            }
        }
    }
}

/// Read and load a file (as the commands read one: `load_file`) or a text, with the
/// server's limits.
fn load(source: Source, from: Option<Format>, g: &Global) -> Result<Loaded, String> {
    match source {
        Source::Path(path) => {
            crate::cli::report::load_file(g, &path, from).map_err(|e| format!("{e:#}"))
        }
        Source::Text { shown, text } => {
            let opts = LoadOptions {
                from,
                limits: g.limits.read_limits(),
                allow_lossy: g.allow_lossy,
                ..LoadOptions::default()
            };
            let mut l = loopconv::pipeline::load_string(&shown, text, &opts).0;
            if g.strict {
                l.diags.make_strict();
            }
            Ok(l)
        }
    }
}

/// The tools' annotations: read-only unless they write.
#[tool_router]
impl Server {
    /// Validate a loop (a file, a folder of them, or its text): every problem with its
    /// code, position, help and typed fixes, exactly as `loopconv check --format json`.
    #[tool(
        name = "check",
        input_schema = input_schema::<CheckIn>(),
        output_schema = output_schema::<CheckOut>(),
        annotations(title = "Check a loop", read_only_hint = true, open_world_hint = false)
    )]
    async fn check(
        &self,
        args: JsonObject,
        ctx: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, ErrorData> {
        finish(
            async move {
                let a: CheckIn = arguments(args)?;
                let input = self.input(a.input, &ctx).await?;
                let roots = match &input.source {
                    Source::Path(_) => self.roots(&ctx).await?,
                    Source::Text { .. } => Roots::from_uris([]),
                };
                let g = self.global(a.strict);
                self.blocking(&ctx, move || check_work(input, &g, &roots))
                    .await
            }
            .await,
        )
    }

    /// The page of one diagnostic code: what it checks, why, a failing example and the fix.
    #[tool(
        name = "explain",
        input_schema = input_schema::<ExplainIn>(),
        output_schema = output_schema::<ExplainOut>(),
        annotations(title = "Explain a code", read_only_hint = true, open_world_hint = false)
    )]
    async fn explain(&self, args: JsonObject) -> Result<CallToolResult, ErrorData> {
        finish(async move {
            let a: ExplainIn = arguments(args)?;
            let Some(row) = docs::find(&a.code) else {
                return Err(Call::from(format!(
                    "`{}` is not a loopconv diagnostic code or name (the `list_codes` tool lists them)",
                    a.code
                )));
            };
            let text = match row {
                docs::Row::Active(code) => docs::explain(code),
                docs::Row::Retired(r) => docs::explain_retired(r),
            };
            Ok(answer(
                &ExplainOut {
                    code: row.code().to_owned(),
                    name: row.name().to_owned(),
                    text,
                },
                false,
            ))
        }
        .await)
    }

    /// Every diagnostic code with its name and summary.
    #[tool(
        name = "list_codes",
        input_schema = input_schema::<Nothing>(),
        output_schema = output_schema::<ListCodesOut>(),
        annotations(title = "List the codes", read_only_hint = true, open_world_hint = false)
    )]
    async fn list_codes(&self, args: JsonObject) -> Result<CallToolResult, ErrorData> {
        finish(
            async move {
                arguments::<Nothing>(args)?;
                let codes = docs::rows()
                    .into_iter()
                    .map(|row| {
                        let (summary, retired) = match row {
                            docs::Row::Active(c) => (c.summary().to_owned(), false),
                            docs::Row::Retired(r) => (r.summary.to_owned(), true),
                        };
                        CodeRow {
                            code: row.code().to_owned(),
                            name: row.name().to_owned(),
                            summary,
                            retired,
                        }
                    })
                    .collect();
                Ok(answer(&ListCodesOut { codes }, false))
            }
            .await,
        )
    }

    /// Draw a loop: Mermaid, Graphviz DOT or PlantUML source.
    #[tool(
        name = "graph",
        input_schema = input_schema::<GraphIn>(),
        output_schema = output_schema::<GraphOut>(),
        annotations(title = "Draw a loop", read_only_hint = true, open_world_hint = false)
    )]
    async fn graph(
        &self,
        args: JsonObject,
        ctx: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, ErrorData> {
        finish(
            async move {
                let a: GraphIn = arguments(args)?;
                let name = a.language.as_deref().unwrap_or("mermaid");
                let Some(language) = Target::ALL
                    .into_iter()
                    .find(|t| t.is_diagram() && t.name() == name)
                else {
                    let names: Vec<&str> = Target::ALL
                        .into_iter()
                        .filter(|t| t.is_diagram())
                        .map(Target::name)
                        .collect();
                    return Err(Call::from(format!(
                        "`{name}` is not a diagram language ({})",
                        names.join(", ")
                    )));
                };
                let style = match a.style.as_deref() {
                    None => None,
                    Some(_) if language != Target::Mermaid => {
                        return Err(Call::from(format!(
                            "`style` chooses a Mermaid diagram style; {} has only one",
                            language.name()
                        )));
                    }
                    Some(s) => Some(mermaid_style(s)?),
                };
                let input = self.input(a.input, &ctx).await?;
                let roots = match &input.source {
                    Source::Path(_) => self.roots(&ctx).await?,
                    Source::Text { .. } => Roots::from_uris([]),
                };
                let g = self.global(false);
                let job = GraphJob {
                    input,
                    language,
                    style,
                    roots,
                };
                self.blocking(&ctx, move || graph_work(job, &g)).await
            }
            .await,
        )
    }

    /// Convert a loop to another format (AgentPM, multi-agent-spec, IR, XState) or to a
    /// LangGraph program. A conversion that loses data is refused, with the loss report,
    /// unless `allow_lossy`. Returns the text; writes a file only when `output` is given.
    #[tool(
        name = "convert",
        input_schema = input_schema::<ConvertIn>(),
        output_schema = output_schema::<ConvertOut>(),
        annotations(
            title = "Convert a loop",
            read_only_hint = false,
            destructive_hint = true,
            idempotent_hint = true,
            open_world_hint = false
        )
    )]
    async fn convert(
        &self,
        args: JsonObject,
        ctx: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, ErrorData> {
        finish(
            async move {
                let a: ConvertIn = arguments(args)?;
                let Some(to) = Target::CONVERTED.into_iter().find(|t| t.name() == a.to) else {
                    let names: Vec<&str> =
                        Target::CONVERTED.into_iter().map(Target::name).collect();
                    return Err(Call::from(format!(
                        "`{}` is not a conversion target ({})",
                        a.to,
                        names.join(", ")
                    )));
                };
                let module = match a.module.as_deref() {
                    None => None,
                    Some(_) if to != Target::Loop(Format::Xstate) => {
                        return Err(Call::from(
                            "`module` writes an XState machine as code: it needs `to: xstate`",
                        ));
                    }
                    Some(m) => match back::xstate::ModuleLanguage::from_str(m, true) {
                        Ok(m) => Some(m),
                        Err(_) => {
                            return Err(Call::from(format!(
                                "`{m}` is not a module language (js, ts)"
                            )));
                        }
                    },
                };
                let opts = back::Options {
                    allow_lossy: a.allow_lossy,
                    actor: a.actor,
                    validator: a.validator,
                    fallback_agent: a.fallback_agent,
                    version: a.set_version,
                    ..back::Options::default()
                };
                let input = self.input(a.input, &ctx).await?;
                let output = self.output(a.output.as_deref(), &ctx).await?;
                if let (Some(out), Source::Path(path)) = (&output, &input.source)
                    && crate::cli::io::same_file(out, path)
                {
                    return Err(Call::from(
                        "`output` is the input file; convert to another file",
                    ));
                }
                let job = ConvertJob {
                    input,
                    to,
                    opts,
                    module,
                    output: a.output.zip(output),
                };
                let mut g = self.global(false);
                g.allow_lossy = job.opts.allow_lossy;
                let result = self.blocking(&ctx, move || convert_work(job, &g)).await?;
                self.log_written(&ctx, &result).await;
                Ok(result)
            }
            .await,
        )
    }

    /// Test paths: the shortest run to each terminal, and runs covering every transition
    /// and checkpoint decision.
    #[tool(
        name = "paths",
        input_schema = input_schema::<PathsIn>(),
        output_schema = output_schema::<PathsOut>(),
        annotations(title = "Test paths", read_only_hint = true, open_world_hint = false)
    )]
    async fn paths(
        &self,
        args: JsonObject,
        ctx: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, ErrorData> {
        finish(
            async move {
                let a: PathsIn = arguments(args)?;
                let rt = runtime(a.runtime_max_steps)?;
                let listed = a
                    .max_steps_listed
                    .unwrap_or(crate::cli::paths::MAX_STEPS_LISTED);
                let input = self.input(a.input, &ctx).await?;
                let g = self.global(false);
                self.blocking(&ctx, move || paths_work(input, rt, listed, &g))
                    .await
            }
            .await,
        )
    }

    /// Step through a loop as the AgentPM harness runs it, with scripted outcomes,
    /// failures and checkpoint decisions; ends with the run's status.
    #[tool(
        name = "walk",
        input_schema = input_schema::<WalkIn>(),
        output_schema = output_schema::<WalkOut>(),
        annotations(title = "Walk a loop", read_only_hint = true, open_world_hint = false)
    )]
    async fn walk(
        &self,
        args: JsonObject,
        ctx: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, ErrorData> {
        finish(
            async move {
                let a: WalkIn = arguments(args)?;
                let rt = runtime(a.runtime_max_steps)?;
                let mut decisions = Vec::new();
                for d in a.decisions {
                    let decision = match d.decision.as_str() {
                        "approve" => Decision::Approve,
                        "reject" => Decision::Reject,
                        other => {
                            return Err(Call::from(format!(
                                "`{other}` is not a checkpoint decision (approve, reject)"
                            )));
                        }
                    };
                    decisions.push((d.checkpoint, decision));
                }
                let script = loopconv::analysis::walk::Script {
                    outcomes: a.outcomes,
                    decisions,
                };
                let input = self.input(a.input, &ctx).await?;
                let g = self.global(false);
                self.blocking(&ctx, move || walk_work(input, script, rt, &g))
                    .await
            }
            .await,
        )
    }

    /// Compare two loops (any formats): what changed, and whether it breaks callers.
    #[tool(
        name = "diff",
        input_schema = input_schema::<DiffIn>(),
        output_schema = output_schema::<DiffOut>(),
        annotations(title = "Compare two loops", read_only_hint = true, open_world_hint = false)
    )]
    async fn diff(
        &self,
        args: JsonObject,
        ctx: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, ErrorData> {
        finish(
            async move {
                let a: DiffIn = arguments(args)?;
                let old = self.input(a.old, &ctx).await?;
                let new = self.input(a.new, &ctx).await?;
                let g = self.global(false);
                self.blocking(&ctx, move || diff_work(old, new, &g)).await
            }
            .await,
        )
    }

    /// The JSON Schema of a loop format, or of the results one loop's phases return.
    #[tool(
        name = "schema",
        input_schema = input_schema::<SchemaIn>(),
        output_schema = output_schema::<SchemaOut>(),
        annotations(title = "A JSON Schema", read_only_hint = true, open_world_hint = false)
    )]
    async fn schema(
        &self,
        args: JsonObject,
        ctx: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, ErrorData> {
        finish(
            async move {
                let a: SchemaIn = arguments(args)?;
                match (a.format, a.outcomes_of) {
                    (Some(f), None) => {
                        let format = match parse_format(Some(&f)) {
                            Ok(Some(f)) => f,
                            Ok(None) => return Err(Call::from("no format")),
                            Err(e) => return Err(Call::from(e)),
                        };
                        Ok(answer(
                            &SchemaOut {
                                schema: Some(format_schema(format)),
                                diagnostics: diagnostics_of(&[]),
                            },
                            false,
                        ))
                    }
                    (None, Some(i)) => {
                        let input = self.input(i, &ctx).await?;
                        let g = self.global(false);
                        self.blocking(&ctx, move || outcome_schema_work(input, &g))
                            .await
                    }
                    _ => Ok(refused("give either `format` or `outcomes_of`")),
                }
            }
            .await,
        )
    }

    /// A new loop of a known pattern: a valid scaffold to edit. Returns the text; writes a
    /// file only when `output` is given (an existing file is kept).
    #[tool(
        name = "new",
        input_schema = input_schema::<NewIn>(),
        output_schema = output_schema::<NewOut>(),
        annotations(
            title = "A new loop",
            read_only_hint = false,
            destructive_hint = false,
            open_world_hint = false
        )
    )]
    async fn new_loop(
        &self,
        args: JsonObject,
        ctx: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, ErrorData> {
        finish(
            async move {
                let a: NewIn = arguments(args)?;
                let Ok(archetype) = Archetype::from_str(&a.archetype, true) else {
                    let names: Vec<&str> = Archetype::ALL.iter().map(|a| a.name()).collect();
                    return Err(Call::from(format!(
                        "`{}` is not an archetype ({})",
                        a.archetype,
                        names.join(", ")
                    )));
                };
                let to = parse_format(a.format.as_deref())?;
                let output = self.output(a.output.as_deref(), &ctx).await?;
                let format = to.unwrap_or(archetype.format()).name().to_owned();
                let made = match crate::cli::new::make(archetype, &a.name, to) {
                    Ok(m) => m,
                    Err(e) => {
                        return Err(Call::from(format!("{e:#}").replace("`--name ", "`name: ")));
                    }
                };
                let mut out = NewOut {
                    format,
                    text: None,
                    written: None,
                    diagnostics: diagnostics_of(&[]),
                };
                let text = match made {
                    crate::cli::new::Made::Text(t) => t,
                    crate::cli::new::Made::Lossy(losses) => {
                        out.diagnostics = diagnostics_of(losses.items());
                        return Ok(answer(&out, true));
                    }
                };
                if let (Some(real), Some(shown)) = (output, a.output) {
                    if real.exists() {
                        return Err(Call::from(format!("{shown} exists; loopconv mcp keeps it")));
                    }
                    if let Err(e) = crate::cli::io::write_atomic(&real, &text) {
                        return Err(Call::from(format!("writing {shown}: {e:#}")));
                    }
                    out.written = Some(shown);
                }
                out.text = Some(text);
                let result = answer(&out, false);
                self.log_written(&ctx, &result).await;
                Ok(result)
            }
            .await,
        )
    }
}

/// The Mermaid style named `s`.
fn mermaid_style(s: &str) -> Result<back::mermaid::Style, String> {
    back::mermaid::Style::from_str(s, true).map_err(|_| {
        let names: Vec<String> = back::mermaid::Style::value_variants()
            .iter()
            .filter_map(|v| v.to_possible_value())
            .map(|v| v.get_name().to_owned())
            .collect();
        format!("`{s}` is not a Mermaid style ({})", names.join(", "))
    })
}

fn runtime(max_steps: Option<u64>) -> Result<Runtime, String> {
    match max_steps {
        Some(0) => Err("`runtime_max_steps` is at least 1".to_owned()),
        n => Ok(Runtime {
            max_steps: n.unwrap_or(RUNTIME_MAX_STEPS),
        }),
    }
}
