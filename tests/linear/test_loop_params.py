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
