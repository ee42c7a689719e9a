import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect } from 'react'
import type { McpServerDraft, McpServerStatus } from '../../../../shared/ipc'
import { useBureau } from '../../ipc/BureauProvider'

export const SERVERS_KEY = ['mcp.servers'] as const

/** The servers with their live state: `mcp.changed` replaces the list as servers connect or fail. */
export function useMcpServers() {
  const bureau = useBureau()
  const queryClient = useQueryClient()
  useEffect(
    () => bureau.on('mcp.changed', (servers) => queryClient.setQueryData(SERVERS_KEY, servers)),
    [bureau, queryClient],
  )
  return useQuery({ queryKey: SERVERS_KEY, queryFn: () => bureau.invoke('mcp.servers'), retry: false })
}

export function useMcpTools(name: string, status: McpServerStatus, enabled: boolean) {
  const bureau = useBureau()
  return useQuery({
    queryKey: ['mcp.tools', name, status.state, status.toolCount],
    queryFn: () => bureau.invoke('mcp.tools', { name }),
    enabled: enabled && status.state === 'connected',
    retry: false,
  })
}

/** Every change refetches the list (the event usually got there first). */
export function useMcpMutations() {
  const bureau = useBureau()
  const queryClient = useQueryClient()
  const onSettled = () => queryClient.invalidateQueries({ queryKey: SERVERS_KEY })
  return {
    save: useMutation({ mutationFn: (d: McpServerDraft) => bureau.invoke('mcp.save', d), onSettled }),
    setEnabled: useMutation({
      mutationFn: (v: { name: string; enabled: boolean }) => bureau.invoke('mcp.setEnabled', v),
      onSettled,
    }),
    remove: useMutation({ mutationFn: (name: string) => bureau.invoke('mcp.remove', { name }), onSettled }),
    reconnect: useMutation({
      mutationFn: (name: string) => bureau.invoke('mcp.reconnect', { name }),
      onSettled,
    }),
    importJson: useMutation({
      mutationFn: (json: string) => bureau.invoke('mcp.import', { json }),
      onSettled,
    }),
  }
}
