import type { AppContext } from '../../context.js';
import { actorRepository } from './actor.repository.js';

/**
 * Sessions as another module checks them (the live stream): the actor of a live session (the user
 * exists, is not removed, the session is not revoked or expired), and which of several sessions
 * still live. The same queries as the auth plugin's.
 */
export function sessionsService(ctx: Pick<AppContext, 'db'>) {
  const actors = actorRepository(ctx.db);
  return {
    findSessionActor: (uid: string, sessionId: string, now: Date) =>
      actors.findSessionActor(uid, sessionId, now),
    findLiveSessions: (sessionIds: string[], now: Date) => actors.findLiveSessions(sessionIds, now),
    /** A person as an actor without a session (a chat's 確認 as the linked account). */
    findUserActor: (uid: string) => actors.findUserActor(uid),
  };
}
