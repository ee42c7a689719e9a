import { z } from 'zod'
import { route } from '../defineContract'
import { Binary } from './chat'

/** An agent path: `/` is the workspace folder. The host path is never sent to the renderer. */
export const AgentPathInput = z.string().min(1).max(4096)

export const WorkspaceEntry = z.object({
  path: z.string(),
  name: z.string(),
  type: z.enum(['file', 'directory']),
  size: z.number().int().nonnegative(),
  modifiedAt: z.string(),
})
export type WorkspaceEntry = z.infer<typeof WorkspaceEntry>

export const workspaceRoutes = {
  'workspace.list': route({
    summary: 'Entries of a workspace folder (agent paths).',
    input: z.object({ path: AgentPathInput.default('/') }),
    output: z.array(WorkspaceEntry),
  }),
  'workspace.readFile': route({
    summary: 'The bytes of a workspace file, e.g. to download a file the agent returned.',
    input: z.object({ path: AgentPathInput }),
    output: z.object({ name: z.string(), mimeType: z.string(), bytes: Binary }),
  }),
  'workspace.open': route({
    summary: 'Opens a workspace file with the system app (desktop only).',
    input: z.object({ path: AgentPathInput, reveal: z.boolean().default(false) }),
    output: z.object({ opened: z.boolean(), reason: z.string().optional() }),
  }),
}

export const workspaceEvents = {
  /** Files changed in the workspace (agent paths, debounced); `.bureau/` is never reported. */
  'workspace.changed': z.object({ paths: z.array(z.string()) }),
}
