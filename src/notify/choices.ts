// When a notification is sent and in which shape: the values --notify-on and --notify-format take, in
// a file of their own so that checking them (every run that may notify) loads none of the formats.
export type NotifyOn = 'failure' | 'change' | 'always';
export const NOTIFY_ON: readonly NotifyOn[] = ['failure', 'change', 'always'];

export type NotifyFormat = 'json' | 'slack' | 'teams';
export const NOTIFY_FORMATS: readonly NotifyFormat[] = ['json', 'slack', 'teams'];
