/** The real-looking players, characters and sets the demo seed draws its cards from. */

/** A subject and its sets; `value`: a gem-mint copy's rough worth in dollars, to size prices. */
type Row = readonly [
  name: string,
  category: string,
  value: number,
  ...sets: (readonly [set: string, year: number])[],
];

const ROWS: readonly Row[] = [
  ['Mike Trout', 'baseball', 900, ['Bowman Chrome', 2009], ['Topps Update', 2011]],
  ['Shohei Ohtani', 'baseball', 1200, ['Topps Chrome', 2018], ['Bowman Chrome', 2018]],
  ['Derek Jeter', 'baseball', 700, ['SP Foil', 1993], ['Upper Deck', 1993]],
  ['Ken Griffey Jr.', 'baseball', 450, ['Upper Deck', 1989], ['Donruss', 1989]],
  ['Mickey Mantle', 'baseball', 9000, ['Topps', 1959], ['Topps', 1965]],
  ['Aaron Judge', 'baseball', 380, ['Topps Update', 2017], ['Topps Chrome', 2017]],
  ['Julio Rodríguez', 'baseball', 220, ['Topps Chrome Update', 2022]],
  ['Juan Soto', 'baseball', 260, ['Topps Update', 2018], ['Bowman Chrome', 2018]],
  ['Michael Jordan', 'basketball', 6000, ['Fleer', 1986], ['Upper Deck', 1991]],
  ['LeBron James', 'basketball', 2400, ['Topps Chrome', 2003], ['Upper Deck', 2003]],
  ['Kobe Bryant', 'basketball', 1500, ['Topps Chrome', 1996], ['Bowman’s Best', 1996]],
  ['Stephen Curry', 'basketball', 1100, ['Panini Prizm', 2012], ['Topps', 2009]],
  ['Giannis Antetokounmpo', 'basketball', 500, ['Panini Prizm', 2013]],
  ['Luka Dončić', 'basketball', 650, ['Panini Prizm', 2018], ['Donruss Optic', 2018]],
  ['Victor Wembanyama', 'basketball', 480, ['Panini Prizm', 2023], ['Donruss Optic', 2023]],
  ['Anthony Edwards', 'basketball', 300, ['Panini Prizm', 2020]],
  ['Tom Brady', 'football', 2800, ['Bowman Chrome', 2000], ['Playoff Contenders', 2000]],
  ['Patrick Mahomes', 'football', 900, ['Panini Prizm', 2017], ['Donruss Optic', 2017]],
  ['Joe Burrow', 'football', 350, ['Panini Prizm', 2020], ['Select', 2020]],
  ['Justin Jefferson', 'football', 240, ['Panini Prizm', 2020]],
  ['Josh Allen', 'football', 320, ['Panini Prizm', 2018], ['Donruss Optic', 2018]],
  ['C.J. Stroud', 'football', 180, ['Panini Prizm', 2023]],
  ['Wayne Gretzky', 'hockey', 3500, ['O-Pee-Chee', 1979], ['Topps', 1979]],
  ['Connor McDavid', 'hockey', 800, ['Upper Deck Young Guns', 2015]],
  ['Sidney Crosby', 'hockey', 600, ['Upper Deck Young Guns', 2005]],
  ['Connor Bedard', 'hockey', 400, ['Upper Deck Young Guns', 2023]],
  ['Lionel Messi', 'soccer', 1800, ['Panini Mega Cracks', 2004], ['Topps Chrome UEFA', 2021]],
  [
    'Cristiano Ronaldo',
    'soccer',
    1300,
    ['Panini Sports Mega Cracks', 2003],
    ['Topps Chrome UEFA', 2020],
  ],
  ['Kylian Mbappé', 'soccer', 420, ['Panini Prizm World Cup', 2018]],
  ['Erling Haaland', 'soccer', 300, ['Topps Chrome UEFA', 2020]],
  ['Charizard', 'pokemon', 5000, ['Pokémon Base Set', 1999], ['Pokémon Evolutions', 2016]],
  ['Pikachu Illustrator', 'pokemon', 7000, ['Pokémon Promo', 1998]],
  ['Blastoise', 'pokemon', 900, ['Pokémon Base Set', 1999]],
  ['Umbreon VMAX', 'pokemon', 700, ['Pokémon Evolving Skies', 2021]],
  ['Mewtwo', 'pokemon', 250, ['Pokémon Base Set', 1999], ['Pokémon 151', 2023]],
  ['Lugia', 'pokemon', 600, ['Pokémon Neo Genesis', 2000]],
  ['Black Lotus', 'magic', 9500, ['Magic Unlimited', 1993]],
  ['Ragavan, Nimble Pilferer', 'magic', 150, ['Modern Horizons 2', 2021]],
  ['Blue-Eyes White Dragon', 'yugioh', 800, ['Legend of Blue Eyes', 2002]],
  ['Dark Magician', 'yugioh', 350, ['Legend of Blue Eyes', 2002]],
];

export const SUBJECTS = ROWS.map(([name, category, value, ...sets]) => ({
  name,
  category,
  value,
  sets,
}));

const GAME_CATEGORIES = new Set(['pokemon', 'magic', 'yugioh']);

/** Parallels and printings that exist for the kind of card, base cards the most common. */
export function variantsFor(category: string): readonly string[] {
  return GAME_CATEGORIES.has(category)
    ? ['Base', 'Base', 'Base', 'Holo', 'Holo', '1st Edition', 'Reverse Holo']
    : ['Base', 'Base', 'Base', 'Refractor', 'Silver Prizm', 'Rookie', 'Gold /50'];
}

/** Grades by grader, weighted towards the high grades that sellers actually slab. */
export const GRADES: Record<string, readonly string[]> = {
  PSA: ['10', '10', '9', '9', '9', '8', '8', '7', '6', '5', '4', '3', '2', '1', '8.5', '7.5'],
  BGS: ['10', '9.5', '9.5', '9.5', '9', '9', '8.5', '8', '7.5', '6'],
  SGC: ['10', '9.5', '9', '9', '8.5', '8', '7', '6', '5', '3'],
  CGC: ['10', '9.5', '9', '9', '8.5', '8', '7.5', '6.5', '5', '2'],
};

/** How much a grade is worth relative to a 10. */
export function gradeFactor(grade: string): number {
  const g = Number(grade);
  if (g >= 10) return 1;
  if (g >= 9.5) return 0.55;
  if (g >= 9) return 0.32;
  if (g >= 8) return 0.16;
  if (g >= 7) return 0.09;
  return 0.05;
}
