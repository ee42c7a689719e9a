import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { Shell } from './app/Shell'
import { BureauProvider } from './ipc/BureauProvider'
import { bureau } from './ipc/bureauClient'
import './styles/theme.css'

const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false } },
})

const root = document.getElementById('root')
if (root) {
  createRoot(root).render(
    <StrictMode>
      <BureauProvider client={bureau}>
        <QueryClientProvider client={queryClient}>
          <Shell />
        </QueryClientProvider>
      </BureauProvider>
    </StrictMode>,
  )
}
