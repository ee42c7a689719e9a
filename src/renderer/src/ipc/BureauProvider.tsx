import { createContext, type ReactNode, useContext } from 'react'
import type { IpcClient } from '../../../shared/ipc'

const BureauContext = createContext<IpcClient | undefined>(undefined)

/** Hands the host client to every hook below it: the app's real client, or a test's fake one. */
export function BureauProvider({ client, children }: { client: IpcClient; children: ReactNode }) {
  return <BureauContext.Provider value={client}>{children}</BureauContext.Provider>
}

/** The client of the nearest BureauProvider; only the per-domain hooks call it. */
export function useBureau(): IpcClient {
  const client = useContext(BureauContext)
  if (!client) throw new Error('useBureau() needs a <BureauProvider> above it.')
  return client
}
