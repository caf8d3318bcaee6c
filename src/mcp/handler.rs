//! The server's answers beside the tools: its description and capabilities, the resources
//! (the formats' JSON Schemas and the code pages), the draft-loop prompt and the log level.

use clap::ValueEnum as _;
use rmcp::model::{
    ErrorData, GetPromptRequestParams, GetPromptResponse, GetPromptResult, Implementation,
    ListPromptsResult, ListResourcesResult, PaginatedRequestParams, Prompt, PromptArgument,
    PromptMessage, ReadResourceRequestParams, ReadResourceResponse, ReadResourceResult, Resource,
    ResourceContents, Role, ServerCapabilities, ServerConfig,
};
use rmcp::service::RequestContext;
use rmcp::{RoleServer, ServerHandler, tool_handler};
use serde_json::Value;

use loopconv::diag::docs;
use loopconv::{Format, back};

use super::Server;

/// The URI of a format's JSON Schema.
fn schema_uri(f: Format) -> String {
    format!("loopconv://schemas/{}", f.schema_file_name())
}

/// The URI of a code's page.
fn code_uri(code: &str) -> String {
    format!("loopconv://codes/{code}")
}

const PROMPT: &str = "draft-loop";

fn draft_prompt(description: &str, format: Format) -> String {
    format!(
        "Draft an agent loop specification in the {title} format ({name}) for this purpose:\n\n\
         {description}\n\n\
         Steps:\n\
         1. Read the format's JSON Schema (resource {uri}, or the `schema` tool with \
         `format: {name}`); the `new` tool gives a valid scaffold of a known pattern to start from.\n\
         2. Write the loop as text and call the `check` tool with `text` and `format: {name}`.\n\
         3. Fix every diagnostic (the `explain` tool gives a code's page, and each diagnostic's \
         `help` and `fixes` say what to change), and check again until `ok` is true with no warnings.\n\
         4. Call `paths` to see that every terminal is reached, and show the final loop and its \
         `graph` (Mermaid).",
        title = format.title(),
        name = format.name(),
        uri = schema_uri(format),
    )
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Server {
    #[allow(deprecated)] // MCP logging: see `log`.
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_tools()
                .enable_resources()
                .enable_prompts()
                .enable_logging()
                .build(),
        )
        .with_server_info(
            Implementation::new("loopconv", env!("CARGO_PKG_VERSION")).with_title("loopconv"),
        )
        .with_instructions(
            "Validate, draw, convert, walk and path-test agent-loop specifications (AgentPM \
             loop manifests, multi-agent-spec REAL/VEAL loops, XState machines). Every tool \
             takes a loop as `path` (inside the client's roots) or as `text`: call `check` \
             on a draft before writing it.",
        )
    }

    #[allow(deprecated)] // MCP logging: see `log`.
    async fn set_level(
        &self,
        request: rmcp::model::SetLevelRequestParams,
        _ctx: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.log.set(request.level);
        Ok(())
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _ctx: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        let mut resources = Vec::new();
        for f in Format::ALL {
            resources.push(
                Resource::new(schema_uri(f), f.schema_file_name())
                    .with_title(format!("JSON Schema of the {} format", f.title()))
                    .with_mime_type("application/schema+json"),
            );
        }
        for row in docs::rows() {
            resources.push(
                Resource::new(code_uri(row.code()), row.code())
                    .with_title(format!("{} {}", row.code(), row.name()))
                    .with_mime_type("text/markdown"),
            );
        }
        Ok(ListResourcesResult::with_all_items(resources))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _ctx: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let uri = request.uri.as_str();
        let found = if let Some(file) = uri.strip_prefix("loopconv://schemas/") {
            Format::ALL
                .into_iter()
                .find(|f| f.schema_file_name() == file)
                .map(|f| {
                    (
                        back::schema::schema_text(f).to_owned(),
                        "application/schema+json",
                    )
                })
        } else if let Some(code) = uri.strip_prefix("loopconv://codes/") {
            docs::find(code)
                .filter(|row| row.code() == code)
                .map(|row| {
                    let text = match row {
                        docs::Row::Active(c) => docs::explain(c),
                        docs::Row::Retired(r) => docs::explain_retired(r),
                    };
                    (text, "text/markdown")
                })
        } else {
            None
        };
        let Some((text, mime)) = found else {
            return Err(ErrorData::resource_not_found(
                format!("no resource {uri}"),
                None,
            ));
        };
        Ok(
            ReadResourceResult::new(vec![ResourceContents::text(text, uri).with_mime_type(mime)])
                .into(),
        )
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        _ctx: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        let prompt = Prompt::new(
            PROMPT,
            Some("Draft a loop from a description, then check and fix it until it is clean"),
            Some(vec![
                PromptArgument::new("description")
                    .with_description("What the loop is for: its phases, checks and approvals")
                    .with_required(true),
                PromptArgument::new("format")
                    .with_description("agentpm (default), mas, ir or xstate")
                    .with_required(false),
            ]),
        );
        Ok(ListPromptsResult::with_all_items(vec![prompt]))
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        _ctx: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        if request.name != PROMPT {
            return Err(ErrorData::invalid_params(
                format!("no prompt `{}` (the prompt is `{PROMPT}`)", request.name),
                None,
            ));
        }
        let args = request.arguments.unwrap_or_default();
        let text = |k: &str| args.get(k).and_then(Value::as_str).map(str::to_owned);
        let Some(description) = text("description") else {
            return Err(ErrorData::invalid_params(
                "the prompt needs a `description`",
                None,
            ));
        };
        let format = match text("format") {
            None => Format::Agentpm,
            Some(f) => Format::from_str(&f, true)
                .map_err(|_| ErrorData::invalid_params(format!("`{f}` is not a format"), None))?,
        };
        Ok(GetPromptResult::new(vec![PromptMessage::new_text(
            Role::User,
            draft_prompt(&description, format),
        )])
        .with_description("Draft a loop and check it")
        .into())
    }
}
