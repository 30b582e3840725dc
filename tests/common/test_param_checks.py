"""Bad parameter values, for every constructor parameter of Perceptron,
VotedPerceptron, KernelPerceptron and StructuredPerceptron (hypothesis draws
the values): checked when fit starts, a bad value gives ValueError or
TypeError naming the parameter, never an OverflowError or a numpy message
from deeper down, and never a fit that runs on with it.  Bad data is
test_bad_input.py's and test_validation.py's."""
import contextlib
import io
import inspect
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from perceptron import (CentroidClassifier, ConvergenceWarning, KernelPerceptron, Perceptron,
                        StructuredPerceptron, VotedPerceptron)

X = np.array([[0.0, 1.0], [1.0, 0.0], [2.0, 1.0], [0.0, 3.0], [3.0, 0.5], [0.5, 2.5]] * 2)
Y = np.array([0, 1, 1, 0, 1, 0] * 2)

# values that are out of range or of the wrong type for most parameters
BAD = st.one_of(
    st.sampled_from([2**31, 2**32, 2**63 - 1, 2**63, 2**64, 10**30, -2**63 - 1, -2**31, -1, 0,
                     np.int64(2**62), np.uint64(2**64 - 1), np.int32(-5)]),
    st.sampled_from([float("nan"), float("inf"), -float("inf"), 1e300, -1e300, 1e-320, -0.5,
                     0.0, 2.5, np.float32("nan"), np.float64(1e308)]),
    st.sampled_from(["", "auto", "1", "ovr ", None, True, False, np.bool_(True), [1], (2,),
                     {"a": 1}, 1j, np.array([1, 2]), np.array(3), object(), b"l2"]),
)

# parameters whose checked values fit runs with (other values of them may be fine too)
SKIP = {"callback", "random_state", "progress", "verbose"}


def params_of(cls):
    return [name for name in inspect.signature(cls.__init__).parameters
            if name != "self" and name not in SKIP]


def fit_outcome(est):
    """None if the fit ran, else the exception (which must name the parameter)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with contextlib.redirect_stdout(io.StringIO()):
            try:
                if isinstance(est, StructuredPerceptron):
                    est.fit(X, Y, lengths=[5, 7])  # two sequences
                else:
                    est.fit(X, Y)
            except Exception as exc:  # noqa: BLE001 - the type is what is tested
                return exc
    return None


ESTIMATORS = [(cls, name) for cls in (Perceptron, VotedPerceptron, KernelPerceptron,
                                      StructuredPerceptron)
              for name in params_of(cls)]


@pytest.mark.parametrize("cls, name", ESTIMATORS, ids=[f"{c.__name__}-{n}" for c, n in ESTIMATORS])
@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(value=BAD)
def test_a_bad_value_names_its_parameter(cls, name, value):
    est = cls(**{name: value})
    if cls is Perceptron and name == "max_iter" and isinstance(value, (int, np.integer)):
        est.set_params(tol=None)  # the data are separable: converges in a few epochs
    if cls is StructuredPerceptron and name == "max_iter" and isinstance(value, (int, np.integer)):
        return  # a huge max_iter of epochs is valid; what it costs is not tested here
    exc = fit_outcome(est)
    if exc is None:
        return  # a value the parameter accepts (2.5 for a float, 2**62 epochs, ...)
    if isinstance(exc, FloatingPointError):
        # a step so large that the weights overflow: found by the first epoch, named
        assert name == "eta0" and "eta0" in str(exc), (name, value, str(exc))
        return
    assert type(exc) in (ValueError, TypeError), (name, value, repr(exc))
    assert name in str(exc), (name, value, str(exc))


@pytest.mark.parametrize("name, value", [("max_iter", 2**63), ("batch_size", 2**63),
                                         ("max_iter", 2**64), ("batch_size", 10**30),
                                         ("n_iter_no_change", 2**63), ("n_jobs", 2**63),
                                         ("n_jobs", -2**63 - 1)])
def test_values_past_the_loops_integers_are_value_errors(name, value):
    with pytest.raises(ValueError, match=name):
        Perceptron(**{name: value}).fit(X, Y)


def test_numpy_integers_are_integers():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        for n_jobs in (np.int64(2), np.int32(-1), np.int8(1)):
            for cls in (Perceptron, VotedPerceptron, KernelPerceptron):
                cls(n_jobs=n_jobs).fit(X, Y).predict(X)
        Perceptron(max_iter=np.int64(5), batch_size=np.int16(2)).fit(X, Y)


def test_centroid_has_no_parameters_and_checks_its_fit():
    assert CentroidClassifier().get_params() == {}
    with pytest.raises(ValueError, match="sample_weight"):
        CentroidClassifier().fit(X, Y, sample_weight=-np.ones(len(Y)))


def test_dask_fit_checks_n_shards_and_mixing_before_anything():
    pytest.importorskip("dask")
    pytest.importorskip("distributed")
    from perceptron.dask import fit as dask_fit
    # no client is running: each bad argument is named before the client is looked for
    for kwargs, name in [({"n_shards": 0}, "n_shards"), ({"n_shards": 2**63}, "n_shards"),
                         ({"n_shards": 2.5}, "n_shards"), ({"n_shards": "4"}, "n_shards"),
                         ({"mixing": "average"}, "mixing"), ({"mixing": ["uniform"]}, "mixing"),
                         ({"mixing": np.array(["uniform"])}, "mixing"),
                         ({"max_iter": 2**63}, "max_iter"), ({"max_iter": 0}, "max_iter"),
                         ({"callback": 3}, "callback")]:
        with pytest.raises((ValueError, TypeError), match=name):
            dask_fit(Perceptron(), X, Y, **kwargs)


@pytest.mark.parametrize("kwargs", [{}, {"average": True}, {"pocket": True},
                                    {"multiclass": "multinomial"}, {"batch_size": 3},
                                    {"penalty": "elasticnet", "alpha": 0.01}])
def test_epochs_in_blocks_give_the_fit_of_one_run(kwargs, monkeypatch, rng):
    # a long max_iter is run in blocks of epochs (memory follows the epochs run)
    import perceptron.linear._training as training

    Xn = rng.standard_normal((40, 3))
    yn = rng.integers(0, 3, 40)  # not separable: every epoch updates
    whole = Perceptron(max_iter=23, tol=None, **kwargs).fit(Xn, yn)
    monkeypatch.setattr(training, "EPOCH_BLOCK", 5)
    blocks = Perceptron(max_iter=23, tol=None, **kwargs).fit(Xn, yn)
    for name in ("coef_", "intercept_", "mistakes_", "updates_", "loss_"):
        np.testing.assert_array_equal(getattr(whole, name), getattr(blocks, name))
    assert whole.n_iter_ == blocks.n_iter_ == 23 and whole.t_ == blocks.t_
    # and a fit that converges inside a block stops there
    sep = Perceptron(max_iter=2**62, tol=None).fit(X, Y)
    assert sep.converged_ and sep.n_iter_ < 50
