import { z } from 'zod'
import { route } from '../defineContract'

export const HostKind = z.enum(['electron', 'web'])
export type HostKind = z.infer<typeof HostKind>

export const AppInfo = z.object({
  name: z.string(),
  version: z.string(),
  host: HostKind,
  /** The agent's view of the workspace: always the root of its own tree. */
  workspaceRoot: z.literal('/'),
})
export type AppInfo = z.infer<typeof AppInfo>

export const NoticeLevel = z.enum(['info', 'warning', 'error'])
export const AppNotice = z.object({
  level: NoticeLevel,
  message: z.string(),
  /** Stable id so the UI can replace or dismiss a repeated notice. */
  id: z.string().optional(),
})
export type AppNotice = z.infer<typeof AppNotice>

export const appRoutes = {
  'app.info': route({
    summary: 'Name, version and host of the running app.',
    input: z.void(),
    output: AppInfo,
  }),
  'app.notices': route({
    summary: 'Notices raised before the UI connected (e.g. a corrupt settings file).',
    input: z.void(),
    output: z.array(AppNotice),
  }),
  'app.dismissNotice': route({
    summary: 'The user dismissed a notice: it is not listed again by app.notices (until it is raised again).',
    input: z.object({ id: z.string().min(1).max(300) }),
    output: z.object({ id: z.string(), dismissed: z.boolean() }),
  }),
}

export const appEvents = {
  'app.notice': AppNotice,
  /** A notice whose cause is gone (a removed or repaired MCP server): the UI drops it. */
  'app.noticeCleared': z.object({ id: z.string() }),
}
