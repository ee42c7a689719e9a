import { create } from 'zustand'

/** The folder the Workspace page shows and a file to point out ("Show in workspace"). */
interface WorkspaceNavState {
  folder: string
  highlight: string | undefined
  openFolder(folder: string): void
  reveal(agentPath: string): void
}

export function parentOf(agentPath: string): string {
  const cut = agentPath.replace(/\/+$/, '').lastIndexOf('/')
  return cut <= 0 ? '/' : agentPath.slice(0, cut)
}

export const useWorkspaceNav = create<WorkspaceNavState>((set) => ({
  folder: '/',
  highlight: undefined,
  openFolder: (folder) => set({ folder, highlight: undefined }),
  reveal: (agentPath) => set({ folder: parentOf(agentPath), highlight: agentPath }),
}))
