import { z } from 'zod'
import { route } from '../defineContract'

/** A loaded plugin folder as the Settings page lists it: names only, never a host path. */
export const PluginStatus = z.object({
  /** The plugin's folder name. */
  plugin: z.string(),
  status: z.enum(['loaded', 'failed', 'removed']),
  toolsets: z.array(z.string()),
  skipped: z.array(z.object({ name: z.string(), reason: z.string() })),
  error: z.string().optional(),
})
export type PluginStatus = z.infer<typeof PluginStatus>

/**
 * Routes the renderer needs for its own pages (added with the chat/settings UI).
 * `ui.pickFolder` is answered only by the desktop app (native dialog); the web host answers UNSUPPORTED
 * and the page shows a path field instead.
 */
export const uiRoutes = {
  'ui.pickFolder': route({
    summary: 'Shows the native folder picker (desktop only); null when the user cancels.',
    input: z.object({ title: z.string().max(200).optional(), defaultPath: z.string().max(4096).optional() }),
    output: z.object({ path: z.string().nullable() }),
  }),
  'tools.toolsets': route({
    summary: 'The toolsets the agent can use (built-in and plugins), with their one-line summaries.',
    input: z.void(),
    output: z.array(z.object({ name: z.string(), summary: z.string(), methods: z.number().int() })),
  }),
  'tools.plugins': route({
    summary: 'The plugin folders the host loaded, with the toolsets each added and any load error.',
    input: z.void(),
    output: z.array(PluginStatus),
  }),
}
