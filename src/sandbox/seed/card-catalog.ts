/** The real-looking players, characters and sets the demo seed draws its cards from. */

export interface Subject {
  name: string;
  category: string;
  /** Rough value of a gem-mint copy in dollars, to size prices. */
  value: number;
  sets: readonly (readonly [set: string, year: number])[];
}

export const SUBJECTS: readonly Subject[] = [
  {
    name: 'Mike Trout',
    category: 'baseball',
    value: 900,
    sets: [
      ['Bowman Chrome', 2009],
      ['Topps Update', 2011],
    ],
  },
  {
    name: 'Shohei Ohtani',
    category: 'baseball',
    value: 1200,
    sets: [
      ['Topps Chrome', 2018],
      ['Bowman Chrome', 2018],
    ],
  },
  {
    name: 'Derek Jeter',
    category: 'baseball',
    value: 700,
    sets: [
      ['SP Foil', 1993],
      ['Upper Deck', 1993],
    ],
  },
  {
    name: 'Ken Griffey Jr.',
    category: 'baseball',
    value: 450,
    sets: [
      ['Upper Deck', 1989],
      ['Donruss', 1989],
    ],
  },
  {
    name: 'Mickey Mantle',
    category: 'baseball',
    value: 9000,
    sets: [
      ['Topps', 1959],
      ['Topps', 1965],
    ],
  },
  {
    name: 'Aaron Judge',
    category: 'baseball',
    value: 380,
    sets: [
      ['Topps Update', 2017],
      ['Topps Chrome', 2017],
    ],
  },
  {
    name: 'Julio Rodríguez',
    category: 'baseball',
    value: 220,
    sets: [['Topps Chrome Update', 2022]],
  },
  {
    name: 'Juan Soto',
    category: 'baseball',
    value: 260,
    sets: [
      ['Topps Update', 2018],
      ['Bowman Chrome', 2018],
    ],
  },
  {
    name: 'Michael Jordan',
    category: 'basketball',
    value: 6000,
    sets: [
      ['Fleer', 1986],
      ['Upper Deck', 1991],
    ],
  },
  {
    name: 'LeBron James',
    category: 'basketball',
    value: 2400,
    sets: [
      ['Topps Chrome', 2003],
      ['Upper Deck', 2003],
    ],
  },
  {
    name: 'Kobe Bryant',
    category: 'basketball',
    value: 1500,
    sets: [
      ['Topps Chrome', 1996],
      ['Bowman’s Best', 1996],
    ],
  },
  {
    name: 'Stephen Curry',
    category: 'basketball',
    value: 1100,
    sets: [
      ['Panini Prizm', 2012],
      ['Topps', 2009],
    ],
  },
  {
    name: 'Giannis Antetokounmpo',
    category: 'basketball',
    value: 500,
    sets: [['Panini Prizm', 2013]],
  },
  {
    name: 'Luka Dončić',
    category: 'basketball',
    value: 650,
    sets: [
      ['Panini Prizm', 2018],
      ['Donruss Optic', 2018],
    ],
  },
  {
    name: 'Victor Wembanyama',
    category: 'basketball',
    value: 480,
    sets: [
      ['Panini Prizm', 2023],
      ['Donruss Optic', 2023],
    ],
  },
  { name: 'Anthony Edwards', category: 'basketball', value: 300, sets: [['Panini Prizm', 2020]] },
  {
    name: 'Tom Brady',
    category: 'football',
    value: 2800,
    sets: [
      ['Bowman Chrome', 2000],
      ['Playoff Contenders', 2000],
    ],
  },
  {
    name: 'Patrick Mahomes',
    category: 'football',
    value: 900,
    sets: [
      ['Panini Prizm', 2017],
      ['Donruss Optic', 2017],
    ],
  },
  {
    name: 'Joe Burrow',
    category: 'football',
    value: 350,
    sets: [
      ['Panini Prizm', 2020],
      ['Select', 2020],
    ],
  },
  { name: 'Justin Jefferson', category: 'football', value: 240, sets: [['Panini Prizm', 2020]] },
  {
    name: 'Josh Allen',
    category: 'football',
    value: 320,
    sets: [
      ['Panini Prizm', 2018],
      ['Donruss Optic', 2018],
    ],
  },
  { name: 'C.J. Stroud', category: 'football', value: 180, sets: [['Panini Prizm', 2023]] },
  {
    name: 'Wayne Gretzky',
    category: 'hockey',
    value: 3500,
    sets: [
      ['O-Pee-Chee', 1979],
      ['Topps', 1979],
    ],
  },
  {
    name: 'Connor McDavid',
    category: 'hockey',
    value: 800,
    sets: [['Upper Deck Young Guns', 2015]],
  },
  {
    name: 'Sidney Crosby',
    category: 'hockey',
    value: 600,
    sets: [['Upper Deck Young Guns', 2005]],
  },
  {
    name: 'Connor Bedard',
    category: 'hockey',
    value: 400,
    sets: [['Upper Deck Young Guns', 2023]],
  },
  {
    name: 'Lionel Messi',
    category: 'soccer',
    value: 1800,
    sets: [
      ['Panini Mega Cracks', 2004],
      ['Topps Chrome UEFA', 2021],
    ],
  },
  {
    name: 'Cristiano Ronaldo',
    category: 'soccer',
    value: 1300,
    sets: [
      ['Panini Sports Mega Cracks', 2003],
      ['Topps Chrome UEFA', 2020],
    ],
  },
  {
    name: 'Kylian Mbappé',
    category: 'soccer',
    value: 420,
    sets: [['Panini Prizm World Cup', 2018]],
  },
  { name: 'Erling Haaland', category: 'soccer', value: 300, sets: [['Topps Chrome UEFA', 2020]] },
  {
    name: 'Charizard',
    category: 'pokemon',
    value: 5000,
    sets: [
      ['Pokémon Base Set', 1999],
      ['Pokémon Evolutions', 2016],
    ],
  },
  {
    name: 'Pikachu Illustrator',
    category: 'pokemon',
    value: 7000,
    sets: [['Pokémon Promo', 1998]],
  },
  { name: 'Blastoise', category: 'pokemon', value: 900, sets: [['Pokémon Base Set', 1999]] },
  {
    name: 'Umbreon VMAX',
    category: 'pokemon',
    value: 700,
    sets: [['Pokémon Evolving Skies', 2021]],
  },
  {
    name: 'Mewtwo',
    category: 'pokemon',
    value: 250,
    sets: [
      ['Pokémon Base Set', 1999],
      ['Pokémon 151', 2023],
    ],
  },
  { name: 'Lugia', category: 'pokemon', value: 600, sets: [['Pokémon Neo Genesis', 2000]] },
  { name: 'Black Lotus', category: 'magic', value: 9500, sets: [['Magic Unlimited', 1993]] },
  {
    name: 'Ragavan, Nimble Pilferer',
    category: 'magic',
    value: 150,
    sets: [['Modern Horizons 2', 2021]],
  },
  {
    name: 'Blue-Eyes White Dragon',
    category: 'yugioh',
    value: 800,
    sets: [['Legend of Blue Eyes', 2002]],
  },
  { name: 'Dark Magician', category: 'yugioh', value: 350, sets: [['Legend of Blue Eyes', 2002]] },
];

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
