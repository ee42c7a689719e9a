import { mkdirSync, realpathSync } from 'node:fs'
import path from 'node:path'
import { isInternalPath, type ParsedAgentPath, parseAgentPath } from './agentPath'
import { isInside, locateInside } from './anchored/containment'
import { refuse, workspaceError } from './errors'

export interface ResolvedPath {
  /** Canonical agent path (`/notes/a.txt`). */
  readonly agentPath: string
  /** Real host path to open: symlinks of existing parts already resolved and checked. */
  readonly hostPath: string
  readonly exists: boolean
}

export interface ResolveOptions {
  /** Allow the internal `.bureau` folder (only Bureau's own services pass this). */
  readonly allowInternal?: boolean
}

/** Maps agent paths to host paths and back for one workspace root. */
export class PathResolver {
  readonly rootReal: string
  private readonly rootGiven: string

  constructor(root: string) {
    this.rootGiven = path.resolve(root)
    mkdirSync(this.rootGiven, { recursive: true })
    this.rootReal = realpathSync.native(this.rootGiven)
  }

  parse(agentPath: unknown, options: ResolveOptions = {}): ParsedAgentPath {
    const parsed = parseAgentPath(agentPath)
    if (!options.allowInternal && isInternalPath(parsed)) {
      refuse('internal-folder', 'the .bureau folder is internal to Bureau; use another folder.')
    }
    return parsed
  }

  async resolve(agentPath: unknown, options: ResolveOptions = {}): Promise<ResolvedPath> {
    const parsed = this.parse(agentPath, options)
    const location = await locateInside(this.rootReal, parsed.segments, options.allowInternal)
    return { agentPath: parsed.path, hostPath: location.hostPath, exists: location.exists }
  }

  /** Host path to agent path. Throws (without echoing the host path) when it is outside the workspace. */
  toAgent(hostPath: string): string {
    const absolute = path.resolve(hostPath)
    const root = isInside(this.rootReal, absolute) ? this.rootReal : this.rootGiven
    if (!isInside(root, absolute)) {
      throw workspaceError('FORBIDDEN', 'That file is outside the workspace, so it has no workspace path.')
    }
    const relative = path.relative(root, absolute)
    return relative === '' ? '/' : `/${relative.split(path.sep).join('/')}`
  }

  /** Host path for an already-canonical agent path, without disk checks (internal bookkeeping only). */
  lexicalHostPath(agentPath: string): string {
    return path.join(this.rootReal, ...agentPath.split('/').filter(Boolean))
  }
}
