/** Accuracy cases on a file with non-ASCII headers ("Région", "Montant (€)") and day-first dates. */
import type { Vente } from './datasets';
import { aggregate, groupBy, monthOf, topKeys, type Case } from './expect';

const F = ['ventes.csv'];

export function ventesCases(v: readonly Vente[]): Case[] {
  const m = (x: Vente): number => x.montant;
  const q2 = v.filter((x) => x.dateIso >= '2023-04-01' && x.dateIso < '2023-07-01');
  return [
    { q: 'Total montant by région', files: F, expect: { kind: 'groups', values: groupBy(v, (x) => x.region, m, 'sum') } },
    { q: 'Average quantité per catégorie', files: F, expect: { kind: 'groups', values: groupBy(v, (x) => x.categorie, (x) => x.quantite, 'avg') } },
    { q: 'Total montant in Bretagne', files: F, expect: { kind: 'scalar', value: aggregate(v.filter((x) => x.region === 'Bretagne').map(m), 'sum') } },
    { q: 'Total montant by vendeur in 2024', files: F, expect: { kind: 'groups', values: groupBy(v.filter((x) => x.dateIso.startsWith('2024')), (x) => x.vendeur, m, 'sum') } },
    { q: 'Monthly total montant for Île-de-France', files: F, expect: { kind: 'groups', values: groupBy(v.filter((x) => x.region === 'Île-de-France'), (x) => monthOf(x.dateIso), m, 'sum') } },
    { q: 'Which vendeur has the highest total quantité?', files: F, expect: { kind: 'ranked', keys: topKeys(groupBy(v, (x) => x.vendeur, (x) => x.quantite, 'sum'), 1) } },
    { q: 'How many ventes in Electronique?', files: F, expect: { kind: 'scalar', value: v.filter((x) => x.categorie === 'Électronique').length } },
    { q: 'Average montant in Q2 2023', files: F, expect: { kind: 'scalar', value: aggregate(q2.map(m), 'avg') } },
    { q: 'Distribution of montant', files: F, expect: { kind: 'histogram', total: v.length, min: aggregate(v.map(m), 'min'), max: aggregate(v.map(m), 'max') } },
    { q: 'Top 3 régions by average montant', files: F, expect: { kind: 'ranked', keys: topKeys(groupBy(v, (x) => x.region, m, 'avg'), 3) } },
    { q: 'Quantité by catégorie and région', files: F, expect: { kind: 'groups', dims: 2, values: groupBy(v, (x) => `${x.categorie} | ${x.region}`, (x) => x.quantite, 'sum') } },
    { q: 'Revenue by région', files: F, expect: { kind: 'groups', values: groupBy(v, (x) => x.region, m, 'sum') } },
    { q: 'montant moyen par région', files: F, expect: { kind: 'groups', values: groupBy(v, (x) => x.region, m, 'avg') } },
  ];
}
