/** The tag colours of a task's priority and stage (board cards and the drawer). */
export const PRIORITY_COLORS: Record<string, string> = { Low: 'default', Normal: 'blue', High: 'orange', Urgent: 'red' };
export const STAGE_COLORS: Record<string, string> = { Draft: 'default', InReview: 'purple', NotStarted: 'blue', InProgress: 'orange', Completed: 'green', Terminated: 'red' };
