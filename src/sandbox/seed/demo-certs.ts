import type { Grader } from '../domain/inventory';

type Row = [cert: string, grader: Grader, grade: string, year: number, set: string, ...rest: Card];
type Card = [player: string, number: number, category: string];

const ROWS: Row[] = [
  ['84512001', 'PSA', '10', 2018, 'Topps Chrome', 'Shohei Ohtani', 150, 'baseball'],
  ['84512002', 'PSA', '9', 2003, 'Topps Chrome', 'LeBron James', 111, 'basketball'],
  ['0012345003', 'BGS', '9.5', 2017, 'Panini Prizm', 'Patrick Mahomes', 269, 'football'],
  ['7312004', 'SGC', '9', 1989, 'Upper Deck', 'Ken Griffey Jr.', 1, 'baseball'],
  ['4412345005', 'CGC', '8.5', 1999, 'Pokémon Base Set', 'Charizard', 4, 'pokemon'],
  ['84512006', 'PSA', '10', 2015, 'Upper Deck Young Guns', 'Connor McDavid', 201, 'hockey'],
];

/** Certs the grader lookup knows but the demo seller has not listed yet: ready for "list a new cert". */
export const DEMO_UNLISTED_CERTS = ROWS.map(
  ([cert_number, grader, grade, year, set, player, number, category]) => ({
    cert_number,
    grader,
    title: `${year} ${set} ${player} #${number} ${grader} ${grade}`,
    grade,
    year,
    set,
    player,
    category,
  }),
);
