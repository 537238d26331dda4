"""The ragged packer the sentence measures share (mgbias.measures.ragged)."""

from __future__ import annotations

import numpy as np
import pytest

from mgbias.measures.ragged import pack_sentences, segment_sums


def test_pack_sentences_concatenates_with_offsets_and_lengths():
    flat, starts, lengths = pack_sentences(
        [np.array([-1.0, -2.0, -3.0]), np.array([-0.5], dtype=np.float32), [-4.0, -5.0]], "x"
    )
    assert flat.dtype == np.float64
    assert flat.tolist() == [-1.0, -2.0, -3.0, -0.5, -4.0, -5.0]
    assert starts.tolist() == [0, 3, 4]
    assert lengths.tolist() == [3, 1, 2]
    assert starts.dtype == lengths.dtype == np.int64


def test_no_sentences_pack_to_empty_arrays():
    flat, starts, lengths = pack_sentences([], "x")
    assert (flat.size, starts.size, lengths.size) == (0, 0, 0)
    sums, flat, lengths = segment_sums([], "x")
    assert (sums.size, flat.size, lengths.size) == (0, 0, 0)


def test_segment_sums_sum_each_sentence_and_an_empty_one_is_zero():
    sums, flat, lengths = segment_sums([[], [-1.0, -2.5], [], [-4.0]], "x")
    assert sums.tolist() == [0.0, -3.5, 0.0, -4.0]
    assert flat.tolist() == [-1.0, -2.5, -4.0]
    assert lengths.tolist() == [0, 2, 0, 1]


def test_neg_inf_is_refused_unless_allowed():
    with pytest.raises(ValueError, match=r"^x\[0\] holds an invalid value \(-inf\) at token 1$"):
        segment_sums([[-1.0, -np.inf]], "x")
    sums, _, _ = segment_sums([[-1.0, -np.inf]], "x", allow_neg_inf=True)
    assert sums.tolist() == [-np.inf]
    with pytest.raises(ValueError, match=r"x\[0\] holds an invalid value \(nan\) at token 0"):
        segment_sums([[np.nan]], "x", allow_neg_inf=True)
    with pytest.raises(ValueError, match=r"x\[0\] holds an invalid value \(inf\) at token 0"):
        segment_sums([[np.inf]], "x", allow_neg_inf=True)


def test_a_refused_value_after_empty_sentences_names_its_own_sentence():
    # Sentences 1 and 2 start at the same offset as sentence 3; the NaN is in sentence 3.
    with pytest.raises(ValueError, match=r"^x\[3\] holds an invalid value \(nan\) at token 1$"):
        segment_sums([[-1.0], [], [], [-2.0, np.nan], []], "x")


def test_pack_sentences_refuses_empty_sentences_and_non_finite_values_by_default():
    with pytest.raises(ValueError, match=r"^x\[1\] is empty; every sentence needs at least one"):
        pack_sentences([[-1.0], []], "x")
    assert pack_sentences([[-1.0], []], "x", allow_empty=True)[2].tolist() == [1, 0]
    with pytest.raises(ValueError, match=r"^x\[1\] holds a non-finite value \(-inf\) at token 0$"):
        pack_sentences([[-1.0], [-np.inf]], "x")
    with pytest.raises(ValueError, match=r"x\[0\] must be a 1-D array .*got shape \(2, 2\)"):
        pack_sentences([np.zeros((2, 2))], "x")
