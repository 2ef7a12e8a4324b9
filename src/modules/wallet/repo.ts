// SQL for the wallet (D23): a member's pass generation; the member itself stays with the members module.
import type { Db } from '../../db/database.js';

export async function passGeneration(db: Db, chainId: string, memberId: string): Promise<number | undefined> {
  const row = await db.selectFrom('members').select('pass_generation').where('chain_id', '=', chainId).where('id', '=', memberId).executeTakeFirst();
  return row?.pass_generation;
}
