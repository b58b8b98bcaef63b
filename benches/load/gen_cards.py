#!/usr/bin/env python3
"""shrine's rules and cards plus N generated card files, under DIR.

Usage: benches/load/gen_cards.py DIR [N]   (N defaults to 10000)

The one generator of the loading benchmarks (`benches/load_cards.sh`,
`benches/load.rs`): cards of five kinds, so that the loader parses and
compiles effects, abilities, tags and properties; ids, names and costs vary,
so no two files are byte-equal.
"""
import os
import shutil
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def card_file(i):
    cost = 2 + i % 6
    vp = 1 + i % 4
    s = f"# generated card {i}\n- id: gen_{i:05}\n  name: 生成カード{i}\n"
    kind = i % 5
    if kind == 0:
        s += '  text: "+2 cards, +1 action"\n  tags: [action, character]\n'
        s += f"  props: {{cost: {cost}}}\n"
        s += "  effects:\n    play: |\n      draw(2)\n      actions += 1\n"
    elif kind == 1:
        s += '  text: "+1 buy, +2●"\n  tags: [action, character]\n'
        s += f"  props: {{cost: {cost}}}\n"
        s += "  effects:\n    play: |\n      buys += 1\n      coins += 2\n"
    elif kind == 2:
        s += '  text: "each other player gains a マイナスカード"\n'
        s += "  tags: [action, attack, character]\n"
        s += f"  props: {{cost: {cost}}}\n"
        s += ("  effects:\n    play: |\n      draw(1)\n      for p in attack() {\n"
              "        gain_for(p, pile(supply, @minus))\n      }\n")
    elif kind == 3:
        s += f'  text: "{vp}勝利点"\n  tags: [victory, character]\n'
        s += f"  props: {{cost: {cost}, vp: {vp}}}\n"
    else:
        s += '  text: "trash a card from your hand; when trashed, gain a 奉納米"\n'
        s += "  tags: [action, character]\n"
        s += f"  props: {{cost: {cost}}}\n"
        s += ("  effects:\n    play: |\n      let c = choose_one(hand, \"trash a card\")\n"
              "      if c != none { trash(c) }\n")
        s += ("  abilities:\n    - on: trash\n      self: true\n"
              "      do: gain(pile(supply, @honoumai))\n")
    return s


def main():
    out = sys.argv[1]
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 10000
    os.makedirs(os.path.join(out, "rules"), exist_ok=True)
    shutil.copy(os.path.join(ROOT, "rules", "shrine.yaml"), os.path.join(out, "rules"))
    cards = os.path.join(out, "cards", "shrine")
    shutil.copytree(os.path.join(ROOT, "cards", "shrine"), cards, dirs_exist_ok=True)
    gen = os.path.join(cards, "generated")
    os.makedirs(gen, exist_ok=True)
    for i in range(n):
        with open(os.path.join(gen, f"gen_{i:05}.yaml"), "w", encoding="utf-8") as f:
            f.write(card_file(i))


if __name__ == "__main__":
    main()
