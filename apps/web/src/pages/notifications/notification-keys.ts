/** The query keys of the inbox and the notification settings (refreshed together by prefix). */
export const notificationKeys = {
  all: ['notifications'] as const,
  unread: ['notifications', 'unread'] as const,
  inbox: (unreadOnly: boolean) => ['notifications', 'inbox', unreadOnly] as const,
  settings: ['notifications', 'settings'] as const,
  subscriptions: ['notifications', 'subscriptions'] as const,
};
