import { useQueryClient } from '@tanstack/react-query'
import { useEffect } from 'react'
import { useBureau } from '../ipc/BureauProvider'
import { queryKeys } from '../ipc/queryKeys'
import { useChat } from './chatStore'

/** Routes the contract's chat.* and agent.* events into the chat store while the page is open. */
export function useChatEvents(): void {
  const bureau = useBureau()
  const queryClient = useQueryClient()
  useEffect(() => {
    const store = () => useChat.getState()
    const offs = [
      bureau.on('chat.delta', (p) => store().onDelta(p)),
      bureau.on('chat.attachment', (p) => store().onAttachment(p)),
      bureau.on('agent.step', (p) => store().onStep(p)),
      bureau.on('agent.question', (p) => store().onQuestion(p)),
      bureau.on('agent.approval', (p) => store().onApproval(p)),
      bureau.on('agent.approvalEnd', (p) => store().onApprovalEnd(p)),
      bureau.on('agent.done', (p) => {
        store().onDone(p)
        void queryClient.invalidateQueries({ queryKey: queryKeys.conversations.all() })
      }),
    ]
    return () => {
      for (const off of offs) off()
    }
  }, [bureau, queryClient])
}
