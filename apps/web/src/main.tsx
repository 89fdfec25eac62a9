import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { isUnauthenticated, trackline } from './api';
import { keys } from './lib/queries';
import { PAGE_SIZE } from './pages/IssuesPage';
import './styles.css';

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // A refused session is not retried: the login form shows instead.
      retry: (count, error) => !isUnauthenticated(error) && count < 1,
      staleTime: 5_000,
      refetchOnWindowFocus: false,
    },
  },
});

// The first screen is usually the issue list: its page is asked for at once, beside `me`, not
// after it (one round trip less before the list shows). Logged out, it fails and is dropped.
if (window.location.pathname === '/') {
  const params = new URLSearchParams(window.location.search);
  const filter = params.get('q') ?? '';
  const after = Math.max(0, (Number.parseInt(params.get('page') ?? '1', 10) || 1) - 1) * PAGE_SIZE;
  void queryClient.prefetchQuery({
    queryKey: keys.issueList(filter, after, PAGE_SIZE),
    queryFn: () => trackline.issues.list.query({ filter, after, max: PAGE_SIZE }),
  });
}

createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <App />
    </QueryClientProvider>
  </StrictMode>,
);
