import { create } from 'zustand'

/** A cited passage: the file and the character range of its converted Markdown. */
export interface PassageRef {
  path: string
  start: number
  end: number
  location: string
}

/** The folder the Workspace page shows, a file to point out ("Show in workspace") and a cited passage to preview. */
interface WorkspaceNavState {
  folder: string
  highlight: string | undefined
  passage: PassageRef | undefined
  openFolder(folder: string): void
  reveal(agentPath: string): void
  showPassage(passage: PassageRef | undefined): void
}

export function parentOf(agentPath: string): string {
  const cut = agentPath.replace(/\/+$/, '').lastIndexOf('/')
  return cut <= 0 ? '/' : agentPath.slice(0, cut)
}

export const useWorkspaceNav = create<WorkspaceNavState>((set) => ({
  folder: '/',
  highlight: undefined,
  passage: undefined,
  openFolder: (folder) => set({ folder, highlight: undefined }),
  reveal: (agentPath) => set({ folder: parentOf(agentPath), highlight: agentPath }),
  showPassage: (passage) =>
    set(
      passage ? { folder: parentOf(passage.path), highlight: passage.path, passage } : { passage: undefined },
    ),
}))
