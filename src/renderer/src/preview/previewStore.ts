import { create } from 'zustand'
import type { AgentStep } from '../../../shared/ipc'
import { type CellChange, receiptChanges } from './receiptChanges'

export interface PreviewTarget {
  /** Agent path of the file. */
  path: string
  /** Cells the run changed, from its receipts (workbooks only). */
  changes: CellChange[]
}

interface PreviewState {
  target: PreviewTarget | undefined
  /** Width of the pane on wide windows, in pixels. */
  width: number
  /** The element focused before the pane opened; focus goes back there on close. */
  opener: HTMLElement | undefined
  open(path: string, steps?: readonly AgentStep[]): void
  close(): void
  setWidth(width: number): void
}

export const MIN_PANE_WIDTH = 320
export const DEFAULT_PANE_WIDTH = 480

export const usePreview = create<PreviewState>((set, get) => ({
  target: undefined,
  width: DEFAULT_PANE_WIDTH,
  opener: undefined,
  open(path, steps = []) {
    const active = document.activeElement
    set({
      target: { path, changes: receiptChanges(steps, path) },
      opener: get().target ? get().opener : active instanceof HTMLElement ? active : undefined,
    })
  },
  close() {
    const { opener } = get()
    set({ target: undefined, opener: undefined })
    if (opener?.isConnected) opener.focus()
  },
  setWidth: (width) => set({ width: Math.max(MIN_PANE_WIDTH, Math.round(width)) }),
}))
