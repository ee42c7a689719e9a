import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import type { AgentAttachment } from '../agent'
import { createToolSession, invoke, type Toolset, type UrlGuard } from '../tools'
import { createWorkspace, type Workspace } from '../workspace'
import type { EvalEnvironment } from './environment'
import type { ToolCallSpec } from './taskSchema'

/** A fresh workspace for one attempt, with its start files and setup done. */
export interface TaskWorkspace {
  root: string
  workspace: Workspace
  attachments: AgentAttachment[]
  dispose(): Promise<void>
}

export interface PrepareOptions {
  tempRoot: string
  fixturesDir: string
  files: Readonly<Record<string, string>>
  /** Start files held in memory: agent path -> bytes. */
  held?: ReadonlyMap<string, Uint8Array>
  attachments: readonly string[]
  setup: readonly ToolCallSpec[]
  env: EvalEnvironment
  /** The toolsets of this attempt (the environment's, with the task's own e-mail account). */
  toolsets: readonly Toolset[]
  urlGuard: UrlGuard
}

function agentToDisk(root: string, agentPath: string): string {
  return join(root, ...agentPath.split('/').filter(Boolean))
}

/** Copies the start files, opens a workspace on them and runs the setup calls (any failure throws). */
export async function prepareTaskWorkspace(id: string, options: PrepareOptions): Promise<TaskWorkspace> {
  const dir = await mkdtemp(join(options.tempRoot, `${id}-`))
  const root = join(dir, 'workspace')
  await mkdir(root, { recursive: true })
  for (const [agentPath, fixture] of Object.entries(options.files)) {
    const target = agentToDisk(root, agentPath)
    await mkdir(dirname(target), { recursive: true })
    await copyFile(join(options.fixturesDir, fixture), target)
  }
  for (const [agentPath, bytes] of options.held ?? []) {
    const target = agentToDisk(root, agentPath)
    await mkdir(dirname(target), { recursive: true })
    await writeFile(target, bytes)
  }
  const workspace = createWorkspace({ root, backupsToKeep: options.env.backupsToKeep })
  const dispose = async () => {
    await workspace.close()
    await rm(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 })
  }
  try {
    if (options.setup.length > 0) {
      const session = createToolSession({
        toolsets: options.toolsets,
        workspace,
        urlGuard: options.urlGuard,
      })
      try {
        for (const call of options.setup) {
          const result = await invoke(session, call.tool, call.args)
          if (!result.ok) throw new Error(`setup ${call.tool} failed: ${result.error}`)
        }
      } finally {
        await session.dispose()
      }
    }
    const attachments: AgentAttachment[] = []
    for (const file of options.attachments)
      attachments.push({
        name: basename(file),
        bytes: new Uint8Array(await readFile(join(options.fixturesDir, file))),
      })
    return { root, workspace, attachments, dispose }
  } catch (error) {
    await dispose()
    throw error
  }
}
