# Every plugin the distribution holds.
*
