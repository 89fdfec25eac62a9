import { useQuery } from '@tanstack/react-query';
import { trackline } from '../api';
import { Link } from '../lib/router';
import { notificationKeys } from '../pages/notifications/notification-keys';

/**
 * The bell of the top bar: a link to the inbox with the unread count (asked again every 30 s and
 * whenever the window regains focus; the inbox page refreshes it when entries are marked read).
 */
export function InboxBell({ current }: { current: boolean }) {
  const unread = useQuery({
    queryKey: notificationKeys.unread,
    queryFn: () => trackline.notifications.unreadCount.query({}),
    refetchInterval: 30_000,
  });
  const count = unread.data?.unread ?? 0;
  const label = !unread.data ? 'Inbox' : count === 0 ? 'Inbox, nothing unread' : `Inbox, ${count} unread`;
  return (
    <Link href="/inbox" className="inbox-bell" aria-label={label} aria-current={current ? 'page' : undefined}>
      <span aria-hidden="true">🔔</span>
      {count > 0 && (
        <span className="inbox-count" aria-hidden="true">
          {count > 99 ? '99+' : count}
        </span>
      )}
    </Link>
  );
}
