"""The typed parameters of the compiled loops (perceptron._core.online.LoopParams):
what Perceptron._loop_params builds from the estimator's parameters, read back
through the properties, pickled and compared by value."""
import pickle

import pytest

from perceptron import Perceptron
from perceptron._core.online import LoopParams


@pytest.mark.parametrize("kwargs", [
    {},
    {"average": True, "margin": 0.5, "fit_intercept": False, "shuffle": False},
    {"batch_size": 16, "eta0": 0.25},
    {"penalty": "elasticnet", "alpha": 1e-3, "l1_ratio": 0.3},
    {"pocket": True},
])
def test_properties_read_the_parameters(kwargs):
    est = Perceptron(**kwargs)
    params = Perceptron._loop_params(est._check_params())
    assert isinstance(params, LoopParams)
    as_dict = params._asdict()
    for name, value in as_dict.items():
        assert getattr(params, name) == value, name
    assert params.eta == est.eta0
    assert params.margin == est.margin
    assert params.average is bool(est.average)
    assert params.batch_size == est.batch_size
    assert params.penalty == est.penalty
    assert params.alpha == est.alpha
    assert pickle.loads(pickle.dumps(params)) == params
    assert hash(pickle.loads(pickle.dumps(params))) == hash(params)


def test_properties_are_read_only():
    params = Perceptron._loop_params(Perceptron()._check_params())
    with pytest.raises(AttributeError):
        params.eta = 2.0


@pytest.mark.parametrize("kwargs, weighted, expected", [
    ({}, False, "PATH_PLAIN"),
    ({"margin": 0.5, "fit_intercept": False, "shuffle": False, "eta0": 0.25}, False,
     "PATH_PLAIN"),
    ({}, True, "PATH_ONLINE"),
    ({"average": True}, False, "PATH_ONLINE"),
    ({"average": True}, True, "PATH_ONLINE"),
    ({"pocket": True}, False, "PATH_ROWS"),
    ({"batch_size": 4}, False, "PATH_ROWS"),
    ({"batch_size": 4, "average": True}, True, "PATH_ROWS"),
    ({"penalty": "l2"}, False, "PATH_ROWS"),
    ({"penalty": "l1", "average": True}, True, "PATH_ROWS"),
])
def test_fast_path_is_the_one_answer(kwargs, weighted, expected):
    # the loops' own choice (perceptron/_core/loop.pxd), read from Python:
    # the plain rule alone runs whole in the kernels, the online rule with
    # averaging or weights in the C epochs, anything else row by row
    from perceptron._core import online
    params = Perceptron._loop_params(Perceptron(**kwargs)._check_params())
    assert online.fast_path(params, weighted) == getattr(online, expected)
    assert online.fast_path(params) == online.fast_path(params, False)
    assert len({online.PATH_ROWS, online.PATH_ONLINE, online.PATH_PLAIN}) == 3


@pytest.mark.parametrize("extra", [
    {}, {"update_rule": "pa1", "C": 0.5}, {"update_rule": "pa2", "C": 0.25}, {"eta": 0.5},
    {"margin": 0.25, "fit_intercept": False, "shuffle": False}, {"average": True},
    {"batch_size": 3}, {"penalty": "l1", "alpha": 0.01, "l1_ratio": 0.5}, {"pocket": True},
    # refused, with the keywords' errors
    {"penalty": "l2", "pocket": True}, {"penalty": "l3"}, {"alpha": -1.0},
    {"l1_ratio": 2.0}, {"update_rule": "other"}, {"update_rule": "pa1", "C": 0.0},
    {"update_rule": "pa1", "batch_size": 2}, {"batch_size": -1}, {"eta": "x"},
])
@pytest.mark.parametrize("stop", [True, False])
def test_checked_loop_params_is_the_keywords(extra, stop):
    # the LoopParams of a dict of checked parameters, made without keyword
    # parsing, is the one the keywords make: the same fields, or the same error
    from perceptron._core.online import checked_loop_params
    p = {**Perceptron()._check_params(), **extra}

    def by_keywords():
        return LoopParams(
            eta=p["eta"], margin=p["margin"], fit_intercept=p["fit_intercept"],
            shuffle=p["shuffle"], average=p["average"], pocket=p["pocket"],
            stop_when_converged=stop, batch_size=p["batch_size"], penalty=p["penalty"],
            alpha=p["alpha"], l1_ratio=p["l1_ratio"],
            update_rule=p.get("update_rule", "perceptron"), C=p.get("C", 1.0))

    def outcome(make):
        try:
            return make()._asdict()
        except (TypeError, ValueError) as exc:
            return type(exc), str(exc)
    want = outcome(by_keywords)
    assert outcome(lambda: checked_loop_params(p, stop)) == want
    assert outcome(lambda: Perceptron._loop_params(p, stop)) == want
