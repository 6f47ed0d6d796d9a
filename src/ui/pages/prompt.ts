/** The token prompt (all a browser without the session cookie sees) and the error page. */
import { html } from "hono/html";
import { type Html, type PageContext, csrfField, layout } from "../html.ts";

/**
 * The token prompt; `wrong` when the last token given was refused; `next` the app path to open after login (already
 * checked to be one: src/ui/guard.ts safeNext). Nothing of the memory is on it.
 */
export function promptPage(ctx: PageContext, wrong: boolean, next = ctx.base): Html {
  const b = ctx.base;
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Token · pegas-memory</title><link rel="icon" href="data:,"><link rel="stylesheet" href="${b}/assets/ui.css"></head>
<body><main id="main" class="prompt"><h1>pegas-memory</h1>
<form method="post" action="${b}/login">${csrfField(ctx)}<input type="hidden" name="next" value="${next}">
<p><label for="token">Access token</label> <input id="token" name="token" type="password" required autocomplete="current-password" autofocus
${wrong ? html` aria-invalid="true" aria-describedby="token-error"` : ""}></p>
${wrong ? html`<p id="token-error" class="error" role="alert">That token is wrong.</p>` : ""}
<p class="muted">The server's PEGAS_HTTP_TOKEN (http_token in its config). It is kept in a cookie of this browser only.</p>
<p><button type="submit">Open</button></p></form></main></body></html>`;
}

/** An error page: what failed and what to do next. */
export function errorPage(ctx: PageContext, title: string, message: string, hint?: string): Html {
  return layout(
    ctx,
    title,
    "-",
    html`<p class="error" role="alert">${message}</p>${hint ? html`<p>${hint}</p>` : ""}
<p><a href="${ctx.base}">Back to the overview</a></p>`,
  );
}
