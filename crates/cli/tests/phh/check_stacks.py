"""Replays every hand of a PHH file of several hands (``.phhs``) in PokerKit
and compares the final stacks with the hand's ``finishing_stacks``.

PokerKit implements the rules of no-limit hold'em independently of fairseed,
so a hand whose stacks agree was played, and paid, the same way by both.

Usage: python3 check_stacks.py HANDS.phhs
Prints one line per disagreeing hand and a summary; exit status 0 when every
hand agrees, 1 when one does not, 2 when PokerKit cannot read the file.
"""

import sys
import warnings

from pokerkit import HandHistory


def final_stacks(hand):
    """The stacks after PokerKit has played the hand's actions to the end."""
    state = None
    for state in hand:
        pass
    return list(state.stacks)


def main(path):
    with open(path, "rb") as f:
        hands = list(HandHistory.load_all(f))
    if not hands:
        print("no hands in the file")
        return 2
    bad = 0
    for number, hand in enumerate(hands, start=1):
        try:
            got = final_stacks(hand)
        except ValueError as e:
            print(f"hand [{number}] (hand {hand.hand}): PokerKit refused it: {e}")
            bad += 1
            continue
        want = list(hand.finishing_stacks)
        if got != want:
            print(f"hand [{number}] (hand {hand.hand}): PokerKit ends with {got}, we end with {want}")
            bad += 1
    print(f"{len(hands)} hands replayed in PokerKit: {len(hands) - bad} agree, {bad} disagree")
    return 1 if bad else 0


if __name__ == "__main__":
    # Warnings (such as PokerKit's notes on optional fields) are not failures.
    warnings.simplefilter("ignore")
    sys.exit(main(sys.argv[1]))
