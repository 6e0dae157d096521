import { FairRotation, MAX_TURN_WEIGHT } from './fair-rotation';

const turns = (rotation: FairRotation, count: number, now = 0) => Array.from({ length: count }, () => rotation.next(now));

describe('FairRotation', () => {
  it('gives every run a turn each round, weighted by remaining batches up to MAX_TURN_WEIGHT', () => {
    const rotation = new FairRotation(10);
    rotation.update([
      { id: 'big', remaining: 1_000_000 },
      { id: 'small', remaining: 5 },
    ]);
    const round = turns(rotation, MAX_TURN_WEIGHT + 1);
    expect(round.filter((id) => id === 'small')).toHaveLength(1);
    expect(round.filter((id) => id === 'big')).toHaveLength(MAX_TURN_WEIGHT);
    // Smooth: the small run's turn is not pushed to the end of the round.
    expect(round.indexOf('small')).toBeLessThan(MAX_TURN_WEIGHT);
  });

  it('shares equally between runs with the same remaining work, and skips resting runs until they wake', () => {
    const rotation = new FairRotation(10);
    rotation.update([
      { id: 'a', remaining: 30 },
      { id: 'b', remaining: 30 },
    ]);
    expect(turns(rotation, 6).sort()).toEqual(['a', 'a', 'a', 'b', 'b', 'b']);
    rotation.rest('a', 100);
    expect(turns(rotation, 3, 50)).toEqual(['b', 'b', 'b']);
    expect(rotation.nextWake()).toBe(100);
    expect(turns(rotation, 4, 100).sort()).toEqual(['a', 'a', 'b', 'b']);
  });

  it('keeps positions across updates, drops runs that left, and has nothing when all rest', () => {
    const rotation = new FairRotation(10);
    rotation.update([{ id: 'a', remaining: 10 }]);
    rotation.rest('a', 10);
    rotation.update([
      { id: 'a', remaining: 10 },
      { id: 'c', remaining: 10 },
    ]);
    expect(rotation.next(5)).toBe('c');
    rotation.remove('c');
    expect(rotation.next(5)).toBeNull();
    rotation.update([]);
    expect(rotation.size).toBe(0);
  });
});
