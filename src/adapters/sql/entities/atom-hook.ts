/**
 * The one call the atom write path makes for entities: the mentions of every atom a write created, found from the
 * entities its LLM distiller named in its chunk (domain/entities/named.ts) or else extracted with the heuristic
 * extractor (domain/entities/mentions.ts), and written in the same transaction as the atoms, so an atom
 * is never stored without its mentions, and the aliases the write itself gives evidence for merged (audited, as
 * every merge; domain/entities/resolve.ts). Atoms that already existed keep theirs (written when they were created, or by
 * `pegas-memory reindex entities`).
 */
import type { TransactionSql } from "postgres";
import { atomMentions } from "../../../domain/entities/atom-mentions.ts";
import { extractMentions } from "../../../domain/entities/mentions.ts";
import { namedEntityExtractor } from "../../../domain/entities/named.ts";
import type { NamedEntity } from "../../../domain/entities/types.ts";
import { resolveEntities } from "../../../domain/entities/resolve.ts";
import { processedText } from "../../../platform/gc.ts";
import type { AtomMentions, MentionsWritten } from "../../../ports/entities.ts";
import { applyAliasMergesTx } from "./resolve.ts";
import { writeMentionsTx } from "./write.ts";

/** An atom's texts as the write path holds them. */
interface AtomTextInput {
  claim: string;
  content: string;
  lang: string;
}

/**
 * Extracts and writes the mentions of the atoms created by a write: `planned[i].atom` was stored as `ids[i]`, and only ids in
 * `created` are new (each is done once, even when a plan repeats a text).
 */
export async function writeNewAtomMentions(
  tx: TransactionSql<any>,
  planned: ReadonlyArray<{ atom: AtomTextInput; entities?: readonly NamedEntity[] }>,
  ids: readonly number[],
  created: ReadonlySet<number>,
): Promise<MentionsWritten & { merged: number }> {
  const done = new Set<number>();
  const batch: AtomMentions[] = [];
  planned.forEach(({ atom: a, entities }, i) => {
    const id = ids[i];
    if (id === undefined || !created.has(id) || done.has(id)) return;
    done.add(id);
    const extract = entities?.length ? namedEntityExtractor(entities) : extractMentions;
    processedText(8 * (a.claim.length + a.content.length)); // the extractor's tokens: garbage once it returns
    for (const m of atomMentions({ id, claim: a.claim, content: a.content, lang: a.lang }, extract)) batch.push(m);
  });
  if (!batch.length) return { entitiesCreated: 0, mentionsAdded: 0, merged: 0 };
  const written = await writeMentionsTx(tx, batch);
  // The write is the resolver's whole corpus, so its evidence is the write's own: a name beside the one longer name
  // that contains it, patronymic variants. Evidence across documents is `reindex entities`' to find.
  const { merges } = resolveEntities([{ docId: "write", mentions: batch.flatMap((b) => b.mentions) }]);
  return { ...written, merged: await applyAliasMergesTx(tx, merges, "resolver") };
}
