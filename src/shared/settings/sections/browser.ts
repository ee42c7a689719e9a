import { z } from 'zod'

export const BrowserMode = z.enum(['edge-profile', 'cdp', 'bundled-chromium'])

export const BrowserSettings = z.looseObject({
  mode: BrowserMode.default('edge-profile'),
  /** Edge/Chrome/Chromium executable; `null`: found automatically. */
  executablePath: z.string().trim().min(1).nullable().default(null),
  /** The browser profile folder for `edge-profile`; `null`: the browser's default profile. */
  profileDir: z.string().trim().min(1).nullable().default(null),
  /** DevTools endpoint for `cdp`, e.g. http://127.0.0.1:9222 or a ws:// URL. */
  cdpEndpoint: z
    .url({ protocol: /^(https?|wss?)$/ })
    .nullable()
    .default(null),
  /** Let the agent open loopback and private-network addresses. */
  allowLocalNetwork: z.boolean().default(false),
  /** `web_search` engine: an http(s) URL with `{query}` where the search words go (default DuckDuckGo HTML). */
  searchUrl: z
    .string()
    .trim()
    .regex(/^https?:\/\/\S*\{query\}/)
    .default('https://html.duckduckgo.com/html/?q={query}'),
})
